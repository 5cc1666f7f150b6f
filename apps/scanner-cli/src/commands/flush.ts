import { EXIT, type ExitCode } from "../cli/errors.js";
import { flushSpool } from "../upload/upload.js";
import { type CommandContext, type CommonOptions, clientFor, filesFor } from "./context.js";

/** Sends spooled uploads. Exit 4 when some still could not be sent. */
export async function flushCommand(ctx: CommandContext, o: CommonOptions): Promise<ExitCode> {
  const files = filesFor(ctx, o);
  // Spooled entries are signed already and carry their server's pinned CA: no identity is needed to send them.
  const report = await flushSpool((entry) => clientFor(ctx, entry, 2), files);
  if (o.json) ctx.output.out(JSON.stringify(report, null, 2));
  else if (!o.quiet) {
    // Every entry ends up sent, rejected or still waiting, so an empty report means the spool was empty.
    if (report.sent.length === 0 && report.rejected.length === 0 && report.remaining === 0)
      ctx.output.out("Nothing to send: the spool is empty.");
    for (const s of report.sent)
      ctx.output.out(
        `sent ${s.scan_id}${s.duplicate ? " (the server already had it)" : ""}${s.grade ? `, grade ${s.grade}` : ""}`,
      );
    for (const r of report.rejected)
      ctx.output.err(`refused by the server, kept in the spool's rejected/ folder: ${r.scan_id} (${r.reason})`);
    if (report.remaining > 0)
      ctx.output.err(`${report.remaining} upload(s) still waiting: the server cannot be reached`);
  }
  return report.remaining > 0 ? EXIT.spooled : EXIT.ok;
}
