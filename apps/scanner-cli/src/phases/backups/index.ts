import { softwareOf } from "../asset_inventory/software-facts.js";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { ok, skipped } from "../shared/outcome.js";
import { privilegeGapFinding } from "../shared/privilege-gap.js";
import { isUnavailable, type Reading } from "../shared/unavailable.js";
import { backupAgents } from "./agents.js";
import { timeMachineRecord } from "./darwin.js";
import { evaluateBackups } from "./evaluate.js";
import { timeshiftRecord } from "./linux.js";
import type { NativeBackupRecord } from "./record.js";
import { windowsBackupRecord } from "./win32.js";

/**
 * Backup agents and the age of the last backup (phase 11, docs/scanner.md). Agents are recognised in the software
 * inventory and running processes; the last backup is read from the system's own tool (Time Machine, wbadmin,
 * timeshift). Third-party agents keep their catalogues to themselves, and restore tests leave no local trace, so
 * both are reported as not established rather than guessed.
 */
export const backupsPhase = definePhase({
  id: "backups",
  readers: { linux: timeshiftRecord, darwin: timeMachineRecord, win32: windowsBackupRecord },
  // The system's own record is one source among the agents: without it, the agents are still reported.
  readingIsPart: true,
  dependsOn: ["asset_inventory"],
  run: checkBackups,
});

async function checkBackups(ctx: PhaseContext, record: Reading<NativeBackupRecord | null>): Promise<PhaseOutcome> {
  const software = softwareOf(ctx.earlier.get("asset_inventory"));
  if (!software) return skipped("needs the software list of the asset_inventory phase, which did not complete");
  const processes = await ctx.host.sysinfo.processes();
  const agents = backupAgents([...software.map((s) => s.name), ...processes.map((p) => p.name)]);
  const { facts, findings } = evaluateBackups(agents, record, ctx.host.now());
  const notRead = isUnavailable(record) ? `could not be read: ${record.message}` : null;
  // The system's record would say whether a backup ever completed, and when: both high when they fail.
  if (isUnavailable(record) && record.kind === "permission" && !ctx.host.isPrivileged)
    findings.push(
      privilegeGapFinding("backups", {
        check: "last_backup",
        what: "whether and when this machine's own backup tool last completed a backup",
        reason: `the last backup ${notRead}`,
        severity: "high",
        category: "contingency",
      }),
    );
  return ok(facts, findings, { last_backup: notRead });
}
