import type { FindingInput, JsonObject } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";
import { isUnavailable, type Reading } from "../shared/unavailable.js";
import type { NativeBackupRecord } from "./record.js";

/** The last successful backup must be at most 48 hours old (docs/scanner.md#what-each-phase-reads). */
export const MAX_BACKUP_AGE_HOURS = 48;
const HOUR_MS = 3_600_000;
const SOURCE_NAMES: Record<NativeBackupRecord["source"], string> = {
  time_machine: "Time Machine",
  windows_server_backup: "Windows Server Backup",
  timeshift: "timeshift",
};

export interface BackupEvaluation {
  readonly facts: JsonObject;
  readonly findings: FindingInput[];
}

/** Findings from the backup agents found and the native tool's record (null: no native tool in use). */
export function evaluateBackups(
  agents: readonly string[],
  record: Reading<NativeBackupRecord | null>,
  now: Date,
): BackupEvaluation {
  const native = isUnavailable(record) ? null : record;
  const findings: FindingInput[] = [];
  // When the system's own tool could not be read, its absence is not established either: no finding then.
  if (agents.length === 0 && !isUnavailable(record) && !native?.configured) {
    findings.push(
      phaseFinding("backups", {
        check: "no_backup_agent",
        severity: "high",
        title: "No backup software was found on this machine",
        detail:
          "Without backups, ransomware or a disk failure destroys the ePHI on this machine for good (data backup plan, disaster recovery plan).",
        remediation:
          "Back up this machine daily to an encrypted, off-site or immutable target, and test a restore at least quarterly.",
        evidence: {
          looked_for: "installed software, running processes and the system's own backup tool",
          ...(native ? { [native.source]: "not configured" } : {}),
        },
      }),
    );
  }
  const ageHours = native?.lastBackupAt
    ? Math.max(0, Math.round((now.getTime() - native.lastBackupAt.getTime()) / HOUR_MS))
    : null;
  if (native && ageHours !== null && ageHours > MAX_BACKUP_AGE_HOURS) {
    findings.push(
      phaseFinding("backups", {
        check: "backup_stale",
        severity: "high",
        title: `The last ${SOURCE_NAMES[native.source]} backup is ${describeAge(ageHours)} old`,
        detail: `Backups of ePHI should complete at least every ${MAX_BACKUP_AGE_HOURS} hours; everything changed since then would be lost with this machine.`,
        remediation: `Find out why ${SOURCE_NAMES[native.source]} stopped (disk disconnected, full, or disabled), run a backup now and watch that it completes daily.`,
        evidence: { source: native.source, last_backup_at: native.lastBackupAt!.toISOString(), age_hours: ageHours },
      }),
    );
  }
  if (native?.configured && native.lastBackupAt === null && native.unavailable === undefined) {
    findings.push(
      phaseFinding("backups", {
        check: "backup_never_completed",
        severity: "high",
        title: `${SOURCE_NAMES[native.source]} is set up but has no completed backup`,
        detail: "A configured backup that never completed protects nothing.",
        remediation: `Run a ${SOURCE_NAMES[native.source]} backup now, fix whatever stops it, and check that it completes daily.`,
        evidence: { source: native.source },
      }),
    );
  }
  return {
    facts: {
      agents: [...agents],
      native_backup: native
        ? {
            source: native.source,
            configured: native.configured,
            ...(native.destinations ? { destinations: [...native.destinations] } : {}),
            ...(native.count !== undefined ? { backups_listed: native.count } : {}),
          }
        : null,
      ...(isUnavailable(record) ? { native_backup_unavailable: record.message } : {}),
      last_backup: native?.lastBackupAt
        ? { source: native.source, at: native.lastBackupAt.toISOString(), age_hours: ageHours }
        : null,
      ...(native?.unavailable ? { last_backup_unavailable: native.unavailable } : {}),
      restore_test_evidence: null,
      restore_test_reason:
        "a restore test leaves no trace on this machine that the scanner can read; keep the test log with the contingency plan",
    },
    findings,
  };
}

function describeAge(hours: number): string {
  return hours < 72 ? `${hours} hours` : `${Math.floor(hours / 24)} days`;
}
