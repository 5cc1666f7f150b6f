import { z } from "zod";
import { softwareOf } from "../asset_inventory/software-facts.js";
import { ephiBearingEvidence } from "../ephi-bearing.js";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { ok, skipped } from "../shared/outcome.js";
import { privilegeGapFinding } from "../shared/privilege-gap.js";
import { isUnavailable, type Reading } from "../shared/unavailable.js";
import { backupAgents } from "./agents.js";
import { darwinBackups } from "./darwin.js";
import { evaluateBackups } from "./evaluate.js";
import { linuxBackups } from "./linux.js";
import type { BackupReading } from "./record.js";
import { windowsBackups } from "./win32.js";

const SoftwareUnavailableSchema = z.object({ software_unavailable: z.string() });

/**
 * Backups and restore readiness (phase 11, docs/scanner.md "Backups and restore readiness"): backup products are
 * recognised in the software inventory and running processes; the last backup, and the last restore where the tool
 * records restores, are read from the tools' own records (Time Machine, wbadmin, timeshift, Veeam Agent for Linux,
 * rsnapshot, restic, Borg). Whether the machine holds ePHI decides the grade cap, as for encryption.
 */
export const backupsPhase = definePhase({
  id: "backups",
  readers: { linux: linuxBackups, darwin: darwinBackups, win32: windowsBackups },
  // The tools' records are one source among the agents: without them, the agents are still reported.
  readingIsPart: true,
  dependsOn: ["asset_inventory", "ephi_flow"],
  run: checkBackups,
});

async function checkBackups(ctx: PhaseContext, reading: Reading<BackupReading>): Promise<PhaseOutcome> {
  const inventory = ctx.earlier.get("asset_inventory");
  const software = softwareOf(inventory);
  if (!software) return skipped("needs the software list of the asset_inventory phase, which did not complete");
  const processes = await ctx.host.sysinfo.processes();
  const ephi = ephiBearingEvidence(ctx.earlier);
  const { facts, findings, notEstablished } = evaluateBackups(reading, {
    agents: backupAgents([...software.map((s) => s.name), ...processes.map((p) => p.name)]),
    softwareListed: !SoftwareUnavailableSchema.safeParse(inventory?.facts).success,
    ephiBearing: ephi.bearing,
    ephiReasons: ephi.reasons,
    now: ctx.host.now(),
  });
  // A tool's record that needs privileges this run lacks would say whether a backup ever completed, and when: both
  // high when they fail, so the gap counts as high (docs/scanner.md, "Checks that need privileges").
  if (!ctx.host.isPrivileged) {
    const locked = isUnavailable(reading)
      ? reading.kind === "permission"
        ? [{ tool: "backup tool", message: reading.message }]
        : []
      : reading.unread.filter((u) => u.kind === "permission");
    for (const gap of locked)
      findings.push(
        privilegeGapFinding("backups", {
          check: "last_backup",
          subject: `last_backup:${gap.tool}`,
          what: `whether and when ${gap.tool.replaceAll("_", " ")} last completed a backup`,
          reason: `the last backup could not be read: ${gap.message}`,
          severity: "high",
          category: "contingency",
        }),
      );
  }
  return ok({ ...facts, ephi_bearing: ephi.bearing }, findings, {
    last_backup: notEstablished ? `could not be read: ${notEstablished}` : null,
  });
}
