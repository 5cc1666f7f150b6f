import { notAssessedLines } from "../scan/not-assessed.js";
import { leftOutLines, type ScanView } from "../scan/scan-outcome.js";
import { EXIT } from "./errors.js";
import { findingsTable } from "./findings-table.js";
import type { Style } from "./output.js";
import { wrapLine } from "./terminal-width.js";

/** One line of a report and the stream it belongs on. */
export interface ReportLine {
  readonly to: "out" | "err";
  readonly text: string;
}

/**
 * A scan's report as text: counts, the findings table, what was not assessed, the upload's fate and the grade;
 * with `quiet`, the counts and grade only (problems still go to stderr). `paint` styles a piece of text. Every line
 * fits `width` (cli/terminal-width.ts): long ones wrap, with their continuation indented.
 */
export function scanTextReport(
  v: ScanView,
  options: { quiet: boolean; paint: (style: Style, text: string) => string; width: number },
): ReportLine[] {
  const { paint, width } = options;
  const lines: ReportLine[] = [];
  // Wrapped before painting, so the colour codes never count as width.
  const say = (to: ReportLine["to"], text: string, style?: Style) => {
    for (const piece of wrapLine(text, width)) lines.push({ to, text: style ? paint(style, piece) : piece });
  };
  const out = (text: string, style?: Style) => say("out", text, style);
  const err = (text: string) => say("err", text);
  const p = v.summary.phases;
  const f = v.summary.findings;
  // Short lines with colour inside them: written as they are.
  const raw = (text: string) => lines.push({ to: "out", text });
  // Under --quiet (scripts, logs) the count line stays one line, however long the host name.
  const counts = () => {
    (options.quiet ? raw : out)(
      `Scan ${v.document.scan_id} of ${v.document.host.hostname}: ${p.ok} ok, ${p.failed} failed, ${p.skipped} skipped, ${p.unsupported} unsupported`,
    );
    raw(
      `Findings: ${paint("red", `${f.critical} critical`)}, ${f.high} high, ${f.medium} medium, ${f.low} low, ${f.info} info`,
    );
  };
  const gradeLine = v.shown ? `Grade (${v.shown.scope}): ${paint("bold", v.shown.grade)} (${v.shown.score}/100)` : null;
  const upload = v.upload;
  if (options.quiet) {
    counts();
    if (gradeLine) raw(gradeLine);
    if (upload?.kind === "spooled") err(`not uploaded (${upload.reason}); saved in ${upload.path}`);
  } else {
    out("");
    counts();
    out("");
    // Laid out to fit by the table itself (its padding is not re-wrapped).
    for (const line of findingsTable(
      v.results.flatMap((r) => r.findings),
      width,
    ))
      raw(line);
    out("");
    // What was not assessed reads as unknown, never as passed: said next to the findings.
    const gapLines = notAssessedLines(v.gaps);
    for (const line of gapLines) out(line, "yellow");
    if (gapLines.length > 0) out("");
    if (v.flushed > 0) out(`Sent ${v.flushed} earlier scan(s) from the spool.`);
    for (const line of leftOutLines(v.leftOut)) out(line, "yellow");
    if (upload?.kind === "uploaded")
      out(`Uploaded${upload.acceptance.duplicate ? " (already known to the server)" : ""}.`);
    if (upload?.kind === "spooled")
      out(
        `Not uploaded: ${upload.reason}. Saved in ${upload.path}; it will be sent by the next run or \`hcs-scanner flush\`.`,
        "yellow",
      );
    if (!v.registered && v.uploadWanted) out("Not uploaded: this machine is not registered (hcs-scanner register).");
    if (gradeLine) raw(gradeLine);
    if (v.outPath) out(`Scan document written to ${v.outPath}`);
  }
  if (v.exit === EXIT.belowFailUnder) err(`grade ${v.shown?.grade} is below --fail-under ${v.failUnder}`);
  return lines;
}
