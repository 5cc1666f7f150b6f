import { z } from "zod";
import type { Host } from "../../host/host.js";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { ok, skipped } from "../shared/outcome.js";
import { backupAgents } from "./agents.js";
import { timeMachineRecord } from "./darwin.js";
import { evaluateBackups } from "./evaluate.js";
import { timeshiftRecord } from "./linux.js";
import type { NativeBackupRecord } from "./record.js";
import { windowsBackupRecord } from "./win32.js";

const InventorySchema = z.object({ software: z.array(z.object({ name: z.string() })) });

/**
 * Backup agents and the age of the last backup (DESIGN §3.6, phase 11). Agents are recognised in the software
 * inventory and running processes; the last backup is read from the system's own tool (Time Machine, wbadmin,
 * timeshift). Third-party agents keep their catalogues to themselves, and restore tests leave no local trace, so
 * both are reported as not established rather than guessed.
 */
export const backupsPhase = definePhase({
  id: "backups",
  platforms: ["linux", "darwin", "win32"],
  dependsOn: ["asset_inventory"],
  run: checkBackups,
});

async function nativeRecord(
  host: Host,
  signal: AbortSignal,
  agents: readonly string[],
): Promise<NativeBackupRecord | string | null> {
  if (host.platform === "darwin") return timeMachineRecord(host, signal);
  if (host.platform === "win32") return windowsBackupRecord(host, signal);
  return agents.includes("timeshift") ? timeshiftRecord(host, signal) : null;
}

async function checkBackups(ctx: PhaseContext): Promise<PhaseOutcome> {
  const inventory = InventorySchema.safeParse(ctx.earlier.get("asset_inventory")?.facts);
  if (!inventory.success)
    return skipped("needs the software list of the asset_inventory phase, which did not complete");
  const processes = await ctx.host.sysinfo.processes();
  const agents = backupAgents([...inventory.data.software.map((s) => s.name), ...processes.map((p) => p.name)]);
  const record = await nativeRecord(ctx.host, ctx.signal, agents);
  const { facts, findings } = evaluateBackups(agents, record, ctx.host.now());
  return ok(facts, findings);
}
