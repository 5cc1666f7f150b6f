import type { Job, JobListState, JobsPage } from "@hcs/protocol";
import { type ExpressionBuilder, sql } from "kysely";
import { z } from "zod";
import type { Database } from "../store/schema.js";
import type { ServiceDeps } from "./deps.js";
import { jobViewInSlices } from "./job-view-in-slices.js";
import { pageCursor } from "./page-cursor.js";

export interface JobsPageQuery {
  readonly accountId: string;
  readonly status?: JobListState;
  readonly a2aContextId?: string;
  readonly changedSince?: string;
  readonly includeResults: boolean;
  readonly limit: number;
  readonly cursor?: string;
}

// Newest first by creation, then id: a total order that a job's later updates never change, so pages never skip
// or repeat a job however the jobs move on between them.
const CursorSchema = z.tuple([z.string(), z.string()]);
const cursor = pageCursor(CursorSchema);

// Every column but `result`, which is read only when asked for (a completed job's findings can be large).
const SUMMARY_COLUMNS = [
  "id",
  "account_id",
  "npi",
  "scan_type",
  "status",
  "callback_url",
  "attempts",
  "max_attempts",
  "run_after",
  "lease_owner",
  "lease_expires_at",
  "created_at",
  "started_at",
  "completed_at",
  "duration_ms",
  "credits_charged",
  "error_code",
  "error_message",
  "a2a_context_id",
  "claim_id",
  "public_result",
] as const;

type JobsExpression = ExpressionBuilder<Database, "jobs">;

/** The listing state as a condition: `failed` and `cancelled` split the failed jobs by their error code. */
function stateCondition(eb: JobsExpression, state: JobListState) {
  if (state === "cancelled") return eb.and([eb("status", "=", "failed"), eb("error_code", "=", "cancelled")]);
  if (state === "failed")
    return eb.and([
      eb("status", "=", "failed"),
      eb.or([eb("error_code", "is", null), eb("error_code", "!=", "cancelled")]),
    ]);
  return eb("status", "=", state);
}

/**
 * One page of an account's scan jobs, newest first, filtered by listing state, A2A context and the time of the
 * last status change, with keyset pagination and the total over every page. A job no A2A message started reports
 * its own id as its context (see a2a/task-mapping.ts), so filtering on that id finds it too.
 */
export async function jobsPage(deps: ServiceDeps, q: JobsPageQuery): Promise<JobsPage> {
  const filtered = () => {
    let query = deps.store.db.selectFrom("jobs").where("account_id", "=", q.accountId);
    const { status, a2aContextId, changedSince } = q;
    if (status) query = query.where((eb) => stateCondition(eb, status));
    if (a2aContextId)
      query = query.where((eb) =>
        eb.or([
          eb("a2a_context_id", "=", a2aContextId),
          eb.and([eb("a2a_context_id", "is", null), eb("id", "=", a2aContextId)]),
        ]),
      );
    // Stored times are ISO strings of one format, so they compare as text; the filter is brought to that format.
    if (changedSince)
      query = query.where(
        sql<string>`coalesce(completed_at, started_at, created_at)`,
        ">=",
        new Date(changedSince).toISOString(),
      );
    return query;
  };

  let page = filtered()
    .select(SUMMARY_COLUMNS)
    // Only the size of each result at first: the page is cut to the byte budget before any result is read.
    .$if(q.includeResults, (qb) => qb.select(resultBytes.as("result_bytes")));
  if (q.cursor) {
    const [createdAt, id] = cursor.decode(q.cursor);
    page = page.where(sql<boolean>`(created_at, id) < (${createdAt}, ${id})`);
  }
  const [rows, count] = await Promise.all([
    page
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(q.limit + 1)
      .execute(),
    filtered()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  let shown = rows.slice(0, q.limit);
  let more = rows.length > q.limit;
  const results = new Map<string, string>();
  if (q.includeResults) {
    const within = jobsWithinBudget(shown.map((r) => Number((r as { result_bytes?: unknown }).result_bytes ?? 0)));
    if (within < shown.length) {
      shown = shown.slice(0, within);
      more = true;
    }
    const ids = shown.filter((r) => Number((r as { result_bytes?: unknown }).result_bytes ?? 0) > 0).map((r) => r.id);
    if (ids.length > 0) {
      const read = await deps.store.db.selectFrom("jobs").select(["id", "result"]).where("id", "in", ids).execute();
      for (const r of read) if (r.result !== null) results.set(r.id, r.result);
    }
  }
  const jobs: Job[] = [];
  for (const row of shown) jobs.push(await jobViewInSlices({ ...row, result: results.get(row.id) ?? null }));
  const last = shown.at(-1);
  // Each job was checked against JobSchema: the page is not walked through a second time.
  return {
    jobs,
    next_cursor: more && last ? cursor.encode([last.created_at, last.id]) : null,
    total: Number(count.n),
  };
}

/**
 * Bytes of stored results one page carries at most: a page stops before the job that would exceed them (with a
 * next_cursor), but always shows one job, however large its result. A page of 100 jobs with results once made a
 * 66 MB answer that held the event loop for seconds (docs/api.md, "Jobs").
 */
export const JOBS_PAGE_RESULT_BYTES = 2 * 1024 * 1024;

/** How many of the jobs, in order, fit the byte budget with results of these sizes (at least one). */
export function jobsWithinBudget(resultBytes: readonly number[], budget = JOBS_PAGE_RESULT_BYTES): number {
  let total = 0;
  for (const [i, bytes] of resultBytes.entries()) {
    if (i > 0 && total + bytes > budget) return i;
    total += bytes;
  }
  return resultBytes.length;
}

/**
 * The size in bytes of a job's stored result (0 without one), computed by the database. Both engines have
 * octet_length; SQLite (3.43 and later) reads it from the row's header without loading the text, where length(), and
 * length(cast(… as blob)), read every page of it: 85 ms for a page of 2.3 MB results.
 */
const resultBytes = sql<number>`coalesce(octet_length(result), 0)`;
