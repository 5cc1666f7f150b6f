import { type FindingsPage, FindingsPageSchema, SEVERITIES, type Severity } from "@hcs/protocol";
import { sql } from "kysely";
import { z } from "zod";
import type { ServiceDeps } from "./deps.js";
import { findingView } from "./grades.js";
import { pageCursor } from "./page-cursor.js";
import { getOwnedPractice } from "./practices.js";

export interface FindingsPageQuery {
  readonly npi: string;
  readonly accountId: string;
  readonly severity?: readonly Severity[];
  readonly category?: string;
  readonly source?: string;
  readonly status: "open" | "resolved";
  readonly host?: string;
  readonly limit: number;
  readonly cursor?: string;
}

// Most severe first; within a severity, grouped by source and subject (a host's findings together), then by id:
// a total order on the primary key, so pages never skip or repeat a finding however rows change between them.
const rank = sql<number>`case severity when 'critical' then 0 when 'high' then 1 when 'medium' then 2 when 'low' then 3 else 4 end`;

const CursorSchema = z.tuple([
  z
    .int()
    .min(0)
    .max(SEVERITIES.length - 1),
  z.string(),
  z.string(),
  z.string(),
]);
const cursor = pageCursor(CursorSchema);

/**
 * One page of a practice's findings, for its owner: filtered by severity, category, source, status and host,
 * most severe first, with keyset pagination (`next_cursor` resumes after the last finding of the page).
 */
export async function findingsPage(deps: ServiceDeps, q: FindingsPageQuery): Promise<FindingsPage> {
  await getOwnedPractice(deps, q.npi, q.accountId);
  let query = deps.store.db
    .selectFrom("findings")
    .selectAll()
    .select(rank.as("severity_rank"))
    .where("npi", "=", q.npi)
    .where("resolved_at", q.status === "open" ? "is" : "is not", null);
  if (q.severity) query = query.where("severity", "in", [...q.severity]);
  if (q.category) query = query.where("category", "=", q.category);
  if (q.source) query = query.where("source", "=", q.source);
  if (q.host) query = query.where("host", "=", q.host.toLowerCase());
  if (q.cursor) {
    const [r, source, subject, id] = cursor.decode(q.cursor);
    query = query.where(sql<boolean>`(${rank}, source, subject, finding_id) > (${r}, ${source}, ${subject}, ${id})`);
  }
  const rows = await query
    .orderBy(rank)
    .orderBy("source")
    .orderBy("subject")
    .orderBy("finding_id")
    .limit(q.limit + 1)
    .execute();
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return FindingsPageSchema.parse({
    npi: q.npi,
    findings: page.map((r) => ({
      ...findingView(r),
      status: r.resolved_at === null ? "open" : "resolved",
      resolved_at: r.resolved_at,
    })),
    next_cursor:
      rows.length > q.limit && last
        ? cursor.encode([Number(last.severity_rank), last.source, last.subject, last.finding_id])
        : null,
  });
}
