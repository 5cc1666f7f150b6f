import type { JsonObject, PhaseId, PhaseStatus, ScanResultDocument } from "@hcs/protocol";
import type { Transaction } from "kysely";
import type { Database } from "../store/schema.js";

/**
 * Uploads of each agent (newest scans first) whose phase facts are kept; older uploads keep their summary only.
 * Facts (installed software, open ports, volumes) are the bulk of a document and the next scan supersedes them;
 * a few are kept to compare a scan with the ones before it.
 */
export const FACTS_KEPT_PER_AGENT = 3;

/**
 * What is kept of an accepted upload for good, besides its digest and acceptance (replays): who scanned what, when,
 * with which outcome per phase. The findings themselves are the host's assessment in the findings table.
 */
export interface ScanUploadSummary {
  readonly scanner_version: string;
  readonly host: ScanResultDocument["host"];
  readonly scope: ScanResultDocument["scope"];
  readonly started_at: string;
  readonly completed_at: string;
  readonly phases: readonly {
    readonly id: PhaseId;
    readonly status: PhaseStatus;
    readonly duration_ms: number;
    readonly reason?: string;
    readonly error?: { code: string; message: string };
    /** How many findings the phase reported. */
    readonly findings: number;
  }[];
}

/** The lasting summary of a scan document (no findings, no facts). */
export function scanUploadSummary(doc: ScanResultDocument): ScanUploadSummary {
  return {
    scanner_version: doc.scanner_version,
    host: doc.host,
    scope: doc.scope,
    started_at: doc.started_at,
    completed_at: doc.completed_at,
    phases: doc.phases.map((p) => ({
      id: p.id,
      status: p.status,
      duration_ms: p.duration_ms,
      ...(p.reason ? { reason: p.reason } : {}),
      ...(p.error ? { error: p.error } : {}),
      findings: p.findings.length,
    })),
  };
}

/** Each phase's facts, by phase id (kept for the newest uploads only, see {@link FACTS_KEPT_PER_AGENT}). */
export function scanUploadFacts(doc: ScanResultDocument): Partial<Record<PhaseId, JsonObject>> {
  return Object.fromEntries(doc.phases.map((p) => [p.id, p.facts]));
}

/** Drops the facts of an agent's uploads older than its newest `keep` scans (by completion, then arrival). */
export async function pruneScanFacts(
  trx: Transaction<Database>,
  agentId: string,
  keep = FACTS_KEPT_PER_AGENT,
): Promise<void> {
  await trx
    .updateTable("scan_uploads")
    .set({ facts: null })
    .where("agent_id", "=", agentId)
    .where("facts", "is not", null)
    .where(
      "scan_id",
      "not in",
      trx
        .selectFrom("scan_uploads")
        .select("scan_id")
        .where("agent_id", "=", agentId)
        .orderBy("completed_at", "desc")
        .orderBy("received_at", "desc")
        .limit(keep),
    )
    .execute();
}
