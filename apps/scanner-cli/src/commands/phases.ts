import { PLATFORMS } from "@hcs/protocol";
import { PHASE_REGISTRY } from "../phases/registry.js";
import type { CommandContext, CommonOptions } from "./context.js";

/** Lists the 12 phases with their HIPAA controls, platform support and whether they touch the network. */
export async function phasesCommand(ctx: CommandContext, o: CommonOptions): Promise<void> {
  const rows = PHASE_REGISTRY.map((p) => ({
    id: p.id,
    title: p.title,
    controls: p.controls,
    platforms: Object.fromEntries(PLATFORMS.map((pl) => [pl, p.platforms.includes(pl)])),
    network: p.touchesNetwork,
    supported_here: p.platforms.includes(ctx.platform as never),
  }));
  if (o.json) {
    ctx.output.out(JSON.stringify(rows, null, 2));
    return;
  }
  ctx.output.out(
    `${"phase".padEnd(16)} ${"linux".padEnd(6)} ${"macos".padEnd(6)} ${"windows".padEnd(8)} ${"network".padEnd(8)} ${"title".padEnd(30)} HIPAA (45 CFR)`,
  );
  for (const r of rows) {
    const yes = (b: boolean) => (b ? "yes" : "-");
    ctx.output.out(
      `${r.id.padEnd(16)} ${yes(r.platforms.linux!).padEnd(6)} ${yes(r.platforms.darwin!).padEnd(6)} ${yes(r.platforms.win32!).padEnd(8)} ${yes(r.network).padEnd(8)} ${r.title.padEnd(30)} ${r.controls.join(", ")}`,
    );
  }
  ctx.output.out("\nNetwork phases probe only --targets (this machine through loopback when none are given).");
}
