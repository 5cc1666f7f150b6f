import type { ExitCode } from "../cli/errors.js";
import { readDeployToken } from "../token/read-token.js";
import { type CommandContext, filesFor } from "./context.js";
import { enrol, type TokenOptions } from "./register.js";
import { runScan, type ScanOptions } from "./scan.js";

/**
 * For CI: registers a throw-away identity with the token (kept in memory only), scans, uploads and prints the
 * grade. Nothing of the identity is written to disk, nor its result (`status` shows the registered agent's own
 * last scan only); an upload that cannot be sent is spooled like any other.
 */
export async function oneShotCommand(ctx: CommandContext, o: ScanOptions & TokenOptions): Promise<ExitCode> {
  const files = filesFor(ctx, o);
  const token = await readDeployToken({
    ...o,
    env: ctx.env.HCS_DEPLOY_TOKEN,
    readStdin: ctx.readStdin,
    warn: ctx.output.err,
  });
  const registration = await enrol(ctx, token, true);
  if (!o.json && !o.quiet)
    ctx.output.err(`registered one-shot identity ${registration.config.agent_id} for NPI ${registration.config.npi}`);
  return runScan(ctx, { ...o, upload: true, keepLastScan: false }, files, registration);
}
