import { createHash } from "node:crypto";
import { canonicalJson, type ReputationFields, type ReputationSnapshot } from "@hcs/protocol";
import { iso, type ServiceDeps } from "./deps.js";

export interface ReputationClock {
  /** Seconds this process has been serving. */
  uptimeSeconds(): number;
}

const WINDOW_MS = 24 * 3600 * 1000;

/**
 * The public reputation snapshot (spec §4 rule 4), computed from the store: scans are completed scan jobs and
 * uploaded scanner results, findings are every finding ever detected, average response time is the mean of audited
 * requests over the last 24 hours (all instances sharing the database). `sha256` covers the canonical JSON of the other fields.
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
    db
      .selectFrom("audit_context")
      .select((eb) => [eb.fn.avg<number>("duration_ms").as("avg")])
      .where("at", ">=", iso(new Date(now.getTime() - WINDOW_MS)))
      .executeTakeFirst(),
  ]);
  const fields: ReputationFields = {
    total_scans: uploads + Number(jobs.n),
    practices_served: practices,
    findings_detected: findings,
    breaches_tracked: breaches + hhsBreaches,
    documents_generated: documents,
    average_response_time_ms: Math.round(Number(timing?.avg ?? 0) * 100) / 100,
    uptime_seconds: Math.floor(clock.uptimeSeconds()),
    generated_at: iso(now),
  };
  return { ...fields, sha256: createHash("sha256").update(canonicalJson(fields)).digest("hex") };
}
