import { existsSync, readFileSync } from "node:fs";
import { loadRegistration } from "../config/agent-config.js";
import { listSpool } from "../upload/spool.js";
import { type CommandContext, type CommonOptions, filesFor } from "./context.js";

/** Registration, last scan and spooled uploads, read from the configuration directory (nothing is contacted). */
export async function statusCommand(ctx: CommandContext, o: CommonOptions): Promise<void> {
  const files = filesFor(ctx, o);
  const registration = loadRegistration(files, ctx.platform);
  const lastScan = existsSync(files.lastScan)
    ? (JSON.parse(readFileSync(files.lastScan, "utf8")) as Record<string, unknown>)
    : null;
  const spool = listSpool(files);
  const status = {
    config_dir: files.dir,
    registered: registration !== null,
    agent: registration
      ? {
          agent_id: registration.config.agent_id,
          npi: registration.config.npi,
          practice_name: registration.config.practice_name,
          server_url: registration.config.server_url,
          registered_at: registration.config.registered_at,
        }
      : null,
    last_scan: lastScan,
    spooled_uploads: spool.map((s) => ({ scan_id: s.scan_id, spooled_at: s.spooled_at, last_error: s.last_error })),
  };
  if (o.json) {
    ctx.output.out(JSON.stringify(status, null, 2));
    return;
  }
  ctx.output.out(`Configuration: ${files.dir}`);
  ctx.output.out(
    registration
      ? `Registered: ${registration.config.agent_id} for ${registration.config.practice_name} (NPI ${registration.config.npi}) with ${registration.config.server_url} since ${registration.config.registered_at}`
      : "Registered: no (hcs-scanner register --key-file <token file>)",
  );
  if (lastScan) {
    const grade = lastScan.grade as { grade: string; score: number; scope: string } | null;
    ctx.output.out(
      `Last scan: ${String(lastScan.scan_id)} at ${String(lastScan.completed_at)}, ${String(lastScan.upload)}${grade ? `, grade ${grade.grade} (${grade.score}/100, ${grade.scope})` : ""}`,
    );
  } else ctx.output.out("Last scan: none");
  ctx.output.out(`Spooled uploads: ${spool.length}${spool.length > 0 ? " (send them with: hcs-scanner flush)" : ""}`);
  for (const s of spool)
    ctx.output.out(`  ${s.scan_id} spooled ${s.spooled_at}${s.last_error ? ` — ${s.last_error}` : ""}`);
}
