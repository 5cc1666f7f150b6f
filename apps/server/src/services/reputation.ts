import { createHash } from "node:crypto";
import { canonicalJson, type ReputationFields, type ReputationSnapshot } from "@hcs/protocol";
import type { Store } from "../store/store.js";
import { iso, type ServiceDeps } from "./deps.js";

export interface ReputationClock {
  /** Seconds this process has been serving. */
  uptimeSeconds(): number;
}

const WINDOW_MS = 24 * 3600 * 1000;

/**
 * The public reputation snapshot (docs/api.md#discovery-and-reputation), computed from the store: scans are completed
 * scan jobs and uploaded scanner results, findings are every finding ever detected, average response time is the mean
 * of audited requests over the last 24 hours (all instances sharing the database). `sha256` covers the canonical JSON
 * of the other fields.
 */
export async function computeReputation(deps: ServiceDeps, clock: ReputationClock): Promise<ReputationSnapshot> {
  const db = deps.store.db;
  const now = deps.now();
  const count = async (table: "practices" | "findings" | "breaches" | "hhs_breaches" | "documents" | "scan_uploads") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const [practices, findings, breaches, hhsBreaches, documents, uploads, jobs, timing] = await Promise.all([
    count("practices"),
    count("findings"),
    count("breaches"),
    // Breaches reported to HHS OCR that the service holds (imported feed), besides the practices' own records.
    count("hhs_breaches"),
    count("documents"),
    // Scans: internal scans uploaded by scanners, and external scans completed by the job worker.
    count("scan_uploads"),
    db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "completed")
      .executeTakeFirstOrThrow(),
    averageDurationSince(deps.store, iso(new Date(now.getTime() - WINDOW_MS))),
  ]);
  const fields: ReputationFields = {
    total_scans: uploads + Number(jobs.n),
    practices_served: practices,
    findings_detected: findings,
    breaches_tracked: breaches + hhsBreaches,
    documents_generated: documents,
    average_response_time_ms: Math.round(timing * 100) / 100,
    uptime_seconds: Math.floor(clock.uptimeSeconds()),
    generated_at: iso(now),
  };
  return { ...fields, sha256: createHash("sha256").update(canonicalJson(fields)).digest("hex") };
}

/**
 * The mean duration of the audited requests since `since` (0: none). PostgreSQL reads the window through its index
 * on audit_context(at). SQLite has none (migration 026: it cost every audited call a B-tree insert): the context's
 * rows are keyed by event id, which its one writer hands out in commit order, so their times (each request's start)
 * rise with the id up to the requests in flight together. The window's first row is found by bisection over the
 * ids (a point read each, ~log2 of the last id), and averaged from there: around the window's edge, requests a few
 * milliseconds apart may fall on either side.
 */
export async function averageDurationSince(store: Pick<Store, "db" | "audit">, since: string): Promise<number> {
  const context = store.db.selectFrom("audit_context").select((eb) => eb.fn.avg<number>("duration_ms").as("avg"));
  if (!store.audit.contextUnindexedByTime)
    return Number((await context.where("at", ">=", since).executeTakeFirst())?.avg ?? 0);
  const first = await windowStart(store.db, since);
  if (first === null) return 0;
  return Number((await context.where("event_id", ">=", first).executeTakeFirst())?.avg ?? 0);
}

/** SQLite: the id of the first context row at or after `since`, taking times as rising with ids (null: none). */
async function windowStart(db: Store["db"], since: string): Promise<number | null> {
  const atOrAfter = (id: number) =>
    db
      .selectFrom("audit_context")
      .select(["event_id", "at"])
      .where("event_id", ">=", id)
      .orderBy("event_id")
      .limit(1)
      .executeTakeFirst();
  const bounds = await db
    .selectFrom("audit_context")
    .select((eb) => [eb.fn.min<number>("event_id").as("lo"), eb.fn.max<number>("event_id").as("hi")])
    .executeTakeFirst();
  if (bounds?.lo == null || bounds.hi == null) return null;
  // The least id whose first row at or after it is in the window; past the last row when none is.
  let [lo, hi] = [Number(bounds.lo), Number(bounds.hi) + 1];
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const row = await atOrAfter(mid);
    if (!row || row.at >= since) hi = mid;
    else lo = mid + 1;
  }
  const row = await atOrAfter(lo);
  return row ? Number(row.event_id) : null;
}
