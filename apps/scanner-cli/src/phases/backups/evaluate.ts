import {
  BACKUP_READINESS_FACT,
  type BackupReadiness,
  type BackupState,
  type FindingInput,
  type JsonObject,
  MAX_BACKUP_AGE_HOURS,
} from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";
import { isUnavailable, type Reading } from "../shared/unavailable.js";
import type { BackupReading, BackupTool, ToolRecord } from "./record.js";

export { MAX_BACKUP_AGE_HOURS };

const HOUR_MS = 3_600_000;
const TOOL_NAMES: Record<BackupTool, string> = {
  time_machine: "Time Machine",
  windows_server_backup: "Windows Server Backup",
  timeshift: "timeshift",
  restic: "restic",
  borg: "Borg",
  rsnapshot: "rsnapshot",
  veeam: "Veeam Agent",
};

/** What the evaluation needs besides the tools' records. */
export interface BackupContext {
  /** Backup products recognised by name in the software list and the process list. */
  readonly agents: readonly string[];
  /** Whether the installed software could be listed (without it, "no backup software" is not established). */
  readonly softwareListed: boolean;
  /** This machine holds ePHI (ePHI software or suspected ePHI files: the encryption cap's rule). */
  readonly ephiBearing: boolean;
  readonly ephiReasons: readonly string[];
  readonly now: Date;
}

export interface BackupEvaluation {
  readonly facts: JsonObject;
  readonly findings: FindingInput[];
  /** Why the last backup could not be established, when it could not (the phase's `not_assessed.last_backup`). */
  readonly notEstablished: string | null;
}

const ageHours = (at: Date, now: Date) => Math.max(0, Math.round((now.getTime() - at.getTime()) / HOUR_MS));

/**
 * Findings and facts from the backup agents recognised by name and the records the tools keep (docs/scanner.md,
 * "Backups and restore readiness"): the newest backup any tool recorded decides whether backups are recent; a
 * machine that holds ePHI with no backup at all, or a tool that never completed one, caps the grade at C.
 */
export function evaluateBackups(reading: Reading<BackupReading>, ctx: BackupContext): BackupEvaluation {
  const records = isUnavailable(reading) ? [] : reading.records;
  const unread = isUnavailable(reading)
    ? [{ tool: null, message: reading.message }]
    : reading.unread.map((u) => ({ tool: u.tool, message: u.message }));
  const newest = records
    .filter((r): r is ToolRecord & { lastBackupAt: Date } => r.lastBackupAt !== null)
    .sort((a, b) => b.lastBackupAt.getTime() - a.lastBackupAt.getTime())[0];
  const neverCompleted = records.find((r) => r.configured && r.lastBackupAt === null && r.unavailable === undefined);
  const unreadable = [
    ...unread.map((u) => u.message),
    ...records.flatMap((r) => (r.configured && r.lastBackupAt === null && r.unavailable ? [r.unavailable] : [])),
  ];
  const hours = newest ? ageHours(newest.lastBackupAt, ctx.now) : null;

  let state: BackupState;
  if (newest) state = hours! <= MAX_BACKUP_AGE_HOURS ? "recent" : "stale";
  else if (neverCompleted) state = "never_completed";
  // A tool that could not be read, an agent whose record is not read, or no software list: absence is not shown.
  else if (unreadable.length > 0 || ctx.agents.length > 0 || !ctx.softwareListed) state = "not_established";
  else state = "none";

  const cap = ctx.ephiBearing ? { gradeCap: "ephi_device_without_backup" as const } : {};
  const ephiNote = ctx.ephiBearing ? ` This machine holds ePHI (${ctx.ephiReasons.join("; ")}).` : "";
  const findings: FindingInput[] = [];
  if (state === "none")
    findings.push(
      phaseFinding("backups", {
        check: "no_backup_agent",
        severity: "high",
        title: "No backup software was found on this machine",
        detail: `Without backups, ransomware or a disk failure destroys the ePHI on this machine for good (data backup plan, disaster recovery plan).${ephiNote}`,
        remediation:
          "Back up this machine daily to an encrypted, off-site or immutable target, and test a restore at least quarterly.",
        evidence: {
          looked_for: "installed software, running processes and the backup tools' own records",
          ...Object.fromEntries(records.map((r) => [r.tool, "not configured"])),
          ephi_bearing: ctx.ephiBearing,
        },
        ...cap,
      }),
    );
  if (newest && state === "stale") {
    const name = TOOL_NAMES[newest.tool];
    findings.push(
      phaseFinding("backups", {
        check: "backup_stale",
        severity: "high",
        title: `The last ${name} backup is ${describeAge(hours!)} old`,
        detail: `Backups of ePHI should complete at least every ${MAX_BACKUP_AGE_HOURS} hours; everything changed since then would be lost with this machine.`,
        remediation: `Find out why ${name} stopped (disk disconnected, full, or disabled), run a backup now and watch that it completes daily.`,
        evidence: { source: newest.tool, last_backup_at: newest.lastBackupAt.toISOString(), age_hours: hours },
      }),
    );
  }
  if (state === "never_completed" && neverCompleted) {
    const name = TOOL_NAMES[neverCompleted.tool];
    findings.push(
      phaseFinding("backups", {
        check: "backup_never_completed",
        severity: "high",
        title: `${name} is set up but has no completed backup`,
        detail: `A configured backup that never completed protects nothing.${ephiNote}`,
        remediation: `Run a ${name} backup now, fix whatever stops it, and check that it completes daily.`,
        evidence: { source: neverCompleted.tool, ephi_bearing: ctx.ephiBearing },
        ...cap,
      }),
    );
  }

  const restores = records.flatMap((r) => (r.restores?.latest ? [{ tool: r.tool, ...r.restores.latest }] : []));
  const latestRestore = restores.sort((a, b) => b.at.getTime() - a.at.getTime())[0] ?? null;
  const readiness: BackupReadiness = {
    ephi_bearing: ctx.ephiBearing,
    backup: {
      state,
      tool: newest?.tool ?? neverCompleted?.tool ?? null,
      at: newest?.lastBackupAt.toISOString() ?? null,
      age_hours: hours,
    },
    restore: latestRestore
      ? {
          tool: latestRestore.tool,
          at: latestRestore.at.toISOString(),
          duration_minutes: latestRestore.durationMinutes,
          succeeded: latestRestore.succeeded,
        }
      : null,
    restore_records_kept_by: records.filter((r) => r.restores !== undefined).map((r) => r.tool),
  };
  const notRead = unread.filter((u) => u.tool !== null);
  return {
    facts: {
      agents: [...ctx.agents],
      tools: records.map(toolFacts),
      ...(notRead.length > 0 ? { tools_not_read: Object.fromEntries(notRead.map((u) => [u.tool!, u.message])) } : {}),
      last_backup: newest ? { source: newest.tool, at: newest.lastBackupAt.toISOString(), age_hours: hours } : null,
      [BACKUP_READINESS_FACT]: readiness,
      restore_test_reason:
        readiness.restore_records_kept_by.length > 0
          ? "restores are read from the tools that record them; record other restore tests in HCS (POST /v1/restore-tests)"
          : "no backup tool on this machine records restores; record restore tests in HCS (POST /v1/restore-tests)",
    },
    findings,
    notEstablished:
      state === "not_established"
        ? unreadable.length > 0
          ? unreadable.join("; ")
          : ctx.agents.length > 0
            ? `the records of ${ctx.agents.join(", ")} are not read by this scanner`
            : "the installed software could not be listed"
        : null,
  };
}

function toolFacts(r: ToolRecord): JsonObject {
  return {
    tool: r.tool,
    configured: r.configured,
    last_backup_at: r.lastBackupAt?.toISOString() ?? null,
    ...(r.count !== undefined ? { backups_listed: r.count } : {}),
    ...(r.destinations ? { destinations: [...r.destinations] } : {}),
    ...(r.unavailable ? { last_backup_unavailable: r.unavailable } : {}),
    ...(r.restores
      ? {
          restores_listed: r.restores.count,
          last_restore: r.restores.latest
            ? {
                at: r.restores.latest.at.toISOString(),
                duration_minutes: r.restores.latest.durationMinutes,
                succeeded: r.restores.latest.succeeded,
              }
            : null,
        }
      : {}),
  };
}

function describeAge(hours: number): string {
  return hours < 72 ? `${hours} hours` : `${Math.floor(hours / 24)} days`;
}
