import { notAssessedLines } from "../scan/not-assessed.js";
import { leftOutLines, type ScanView } from "../scan/scan-outcome.js";
import { EXIT } from "./errors.js";
import { findingsTable } from "./findings-table.js";
import type { Style } from "./output.js";

/** One line of a report and the stream it belongs on. */
export interface ReportLine {
  readonly to: "out" | "err";
  readonly text: string;
}

/**
 * A scan's report as text: counts, the findings table, what was not assessed, the upload's fate and the grade;
 * with `quiet`, the counts and grade only (problems still go to stderr). `paint` styles a piece of text.
 */
export function scanTextReport(
  v: ScanView,
  options: { quiet: boolean; paint: (style: Style, text: string) => string },
): ReportLine[] {
  const { paint } = options;
  const lines: ReportLine[] = [];
  const out = (text: string) => lines.push({ to: "out", text });
  const err = (text: string) => lines.push({ to: "err", text });
  const p = v.summary.phases;
  const f = v.summary.findings;
  const counts = [
    `Scan ${v.document.scan_id} of ${v.document.host.hostname}: ${p.ok} ok, ${p.failed} failed, ${p.skipped} skipped, ${p.unsupported} unsupported`,
    `Findings: ${paint("red", `${f.critical} critical`)}, ${f.high} high, ${f.medium} medium, ${f.low} low, ${f.info} info`,
  ];
  const gradeLine = v.shown ? `Grade (${v.shown.scope}): ${paint("bold", v.shown.grade)} (${v.shown.score}/100)` : null;
  const upload = v.upload;
  if (options.quiet) {
    for (const line of counts) out(line);
    if (gradeLine) out(gradeLine);
    if (upload?.kind === "spooled") err(`not uploaded (${upload.reason}); saved in ${upload.path}`);
  } else {
    out("");
    for (const line of counts) out(line);
    out("");
    for (const line of findingsTable(v.results.flatMap((r) => r.findings))) out(line);
    out("");
    // What was not assessed reads as unknown, never as passed: said next to the findings.
    const gapLines = notAssessedLines(v.gaps);
    for (const line of gapLines) out(paint("yellow", line));
    if (gapLines.length > 0) out("");
    if (v.flushed > 0) out(`Sent ${v.flushed} earlier scan(s) from the spool.`);
    for (const line of leftOutLines(v.leftOut)) out(paint("yellow", line));
    if (upload?.kind === "uploaded")
      out(`Uploaded${upload.acceptance.duplicate ? " (already known to the server)" : ""}.`);
    if (upload?.kind === "spooled")
      out(
        paint(
          "yellow",
          `Not uploaded: ${upload.reason}. Saved in ${upload.path}; it will be sent by the next run or \`hcs-scanner flush\`.`,
        ),
      );
    if (!v.registered && v.uploadWanted) out("Not uploaded: this machine is not registered (hcs-scanner register).");
    if (gradeLine) out(gradeLine);
    if (v.outPath) out(`Scan document written to ${v.outPath}`);
  }
  if (v.exit === EXIT.belowFailUnder) err(`grade ${v.shown?.grade} is below --fail-under ${v.failUnder}`);
  return lines;
}
