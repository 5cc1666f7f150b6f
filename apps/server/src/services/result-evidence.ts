import { BACKUP_READINESS_FACT, type BackupReadiness, BackupReadinessSchema, type PhaseId } from "@hcs/protocol";
import { z } from "zod";

/**
 * What requirements 6 and 13 read of a phase's facts (docs/scoring.md §9), kept with the host's result of that
 * phase (internal_results.evidence): the full facts of an upload are kept for the agent's newest scans only, and a
 * result outlives them while it is the host's latest of its phase. Counts and verdicts only, as the facts are.
 */
export interface ResultEvidence {
  /** asset_inventory: the ePHI roles its software showed (EHR, PACS, database, interface engine). */
  readonly ephi_roles?: readonly string[];
  /** ephi_flow: files with suspected ePHI. */
  readonly files_flagged?: number;
  /** backups: the phase's verdict on backups and restores. */
  readonly readiness?: BackupReadiness;
  /** backups: why the last backup could not be read, when it could not (the phase's `not_assessed.last_backup`). */
  readonly backup_unread?: string;
  /** access_control: which audit-control parts were read, and which could not be (with why). */
  readonly audit?: { readonly read: readonly string[]; readonly not_read: Readonly<Record<string, string>> };
}

const InventorySchema = z.object({ ephi_roles: z.array(z.string()) });
const FlowSchema = z.object({ files_flagged: z.int().min(0) });
const NotAssessedSchema = z.object({ not_assessed: z.record(z.string(), z.string()) });

/** The audit-control parts an access_control reading names, by the facts' keys on each OS (scanner.md, "Audit controls"). */
const AUDIT_PARTS: readonly [part: string, present: (facts: Record<string, unknown>) => boolean][] = [
  ["audit", (f) => typeof f.audit === "object" && f.audit !== null],
  ["audit_policy", (f) => Array.isArray(f.audit_policy_not_recorded)],
  ["event_logs", (f) => Array.isArray(f.event_logs)],
  ["time_sync", (f) => typeof f.time_sync === "object" && f.time_sync !== null],
];
/** not_assessed keys of the audit-control parts (`audit_processes`, `audit_time_sync`, `event_logs`…). */
const isAuditGap = (key: string) => key.startsWith("audit_") || key === "event_logs";

/** The evidence of one phase's facts, or null when the phase carries none the requirements read. */
export function resultEvidence(phase: PhaseId, facts: unknown): ResultEvidence | null {
  if (facts === null || typeof facts !== "object") return null;
  const f = facts as Record<string, unknown>;
  switch (phase) {
    case "asset_inventory": {
      const parsed = InventorySchema.safeParse(f);
      return parsed.success ? { ephi_roles: parsed.data.ephi_roles } : null;
    }
    case "ephi_flow": {
      const parsed = FlowSchema.safeParse(f);
      return parsed.success ? { files_flagged: parsed.data.files_flagged } : null;
    }
    case "backups": {
      const parsed = BackupReadinessSchema.safeParse(f[BACKUP_READINESS_FACT]);
      if (!parsed.success) return null;
      const unread = NotAssessedSchema.safeParse(f);
      const why = unread.success ? unread.data.not_assessed.last_backup : undefined;
      return { readiness: parsed.data, ...(why ? { backup_unread: why.slice(0, 500) } : {}) };
    }
    case "access_control": {
      const gaps = NotAssessedSchema.safeParse(f);
      const notRead = Object.fromEntries(
        Object.entries(gaps.success ? gaps.data.not_assessed : {}).filter(([k]) => isAuditGap(k)),
      );
      return {
        audit: { read: AUDIT_PARTS.filter(([, present]) => present(f)).map(([part]) => part), not_read: notRead },
      };
    }
    default:
      return null;
  }
}

/** Reads stored evidence back; anything unreadable is none (a result judged by its findings alone). */
export function storedResultEvidence(text: string | null): ResultEvidence | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === "object" ? (value as ResultEvidence) : null;
  } catch {
    return null;
  }
}
