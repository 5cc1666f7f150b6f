import type { FindingInput } from "@hcs/protocol";
import { z } from "zod";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { phaseFinding } from "../shared/finding.js";
import { ok, skipped } from "../shared/outcome.js";
import { backupAgents } from "./agents.js";

const InventorySchema = z.object({ software: z.array(z.object({ name: z.string() })) });

/**
 * Backup agents present on this machine (DESIGN §3.6, phase 11). Linux reads the package inventory and running
 * processes; last-backup age and restore-test evidence need each agent's own reader (tmutil, wbadmin, restic…),
 * which wait for captured fixtures, so they are reported as not established rather than guessed.
 */
export const backupsPhase = definePhase({
  id: "backups",
  platforms: ["linux"],
  dependsOn: ["asset_inventory"],
  run: checkBackups,
});

async function checkBackups(ctx: PhaseContext): Promise<PhaseOutcome> {
  const inventory = InventorySchema.safeParse(ctx.earlier.get("asset_inventory")?.facts);
  if (!inventory.success)
    return skipped("needs the software list of the asset_inventory phase, which did not complete");
  const processes = await ctx.host.sysinfo.processes();
  const agents = backupAgents([...inventory.data.software.map((s) => s.name), ...processes.map((p) => p.name)]);
  const findings: FindingInput[] = [];
  if (agents.length === 0) {
    findings.push(
      phaseFinding("backups", {
        check: "no_backup_agent",
        severity: "high",
        title: "No backup software was found on this machine",
        detail:
          "Without backups, ransomware or a disk failure destroys the ePHI on this machine for good (data backup plan, disaster recovery plan).",
        remediation:
          "Back up this machine daily to an encrypted, off-site or immutable target, and test a restore at least quarterly.",
        evidence: { looked_for: "package inventory and running processes" },
      }),
    );
  }
  return ok({ agents, last_backup: null, restore_test_evidence: null }, findings);
}
