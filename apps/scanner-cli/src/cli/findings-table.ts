import { SEVERITIES, type Severity } from "@hcs/protocol";
import { DEFAULT_WIDTH, wrapText } from "./terminal-width.js";

/** What the table shows of a finding. */
export interface TableFinding {
  readonly severity: Severity;
  readonly title: string;
  readonly host?: string | undefined;
  readonly remediation: string;
}

const rank = (s: Severity) => SEVERITIES.indexOf(s);

const HEADER = ["SEVERITY", "FINDING", "HOST", "FIX"] as const;
const GAP = "  ";
/** The narrowest the FINDING and FIX columns are made; a host name wraps past this many characters. */
const MIN_TEXT_COLUMN = 16;
const MAX_HOST_COLUMN = 20;

/**
 * Column widths that fit `width` (pure): each column as wide as its longest cell when everything fits; otherwise
 * SEVERITY keeps its width, HOST at most {@link MAX_HOST_COLUMN} (less when narrow), and FINDING and FIX share the rest (FINDING about
 * two fifths, FIX the remainder, each at least {@link MIN_TEXT_COLUMN}).
 */
function columnWidths(rows: readonly string[][], width: number): number[] {
  const natural = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const gaps = GAP.length * (HEADER.length - 1);
  if (natural.reduce((a, b) => a + b, 0) + gaps <= width) return natural;
  const severity = natural[0]!;
  const host = Math.min(natural[2]!, MAX_HOST_COLUMN, Math.max(8, width - gaps - severity - 2 * MIN_TEXT_COLUMN));
  const rest = width - gaps - severity - host;
  const finding = Math.min(natural[1]!, Math.max(MIN_TEXT_COLUMN, Math.round(rest * 0.42)));
  return [severity, finding, host, Math.max(MIN_TEXT_COLUMN, rest - finding)];
}

/**
 * The findings as a table people read first (as Lynis's warnings and suggestions, or trivy's table): most severe
 * first, then by title; each with its host and its fix. Information-only findings are counted, not listed. The table
 * fits `width`: cells wrap at word boundaries onto more lines, and nothing is cut. Pure: lines of text, no colour.
 */
export function findingsTable(findings: readonly TableFinding[], width = DEFAULT_WIDTH): string[] {
  const listed = findings.filter((f) => f.severity !== "info");
  const infos = findings.length - listed.length;
  if (listed.length === 0)
    return [infos > 0 ? `No findings above information (${infos} for information: --json or --out).` : "No findings."];
  const rows = [...listed]
    .sort((a, b) => rank(a.severity) - rank(b.severity) || a.title.localeCompare(b.title))
    .map((f) => [f.severity.toUpperCase(), oneLine(f.title), f.host ?? "this host", oneLine(f.remediation)]);
  const widths = columnWidths(rows, width);
  const blocks = [[...HEADER], ...rows].map((cells) => {
    const wrapped = cells.map((c, i) => wrapText(c, widths[i]!));
    return Array.from({ length: Math.max(...wrapped.map((w) => w.length)) }, (_, line) =>
      wrapped
        .map((w, i) => (i === wrapped.length - 1 ? (w[line] ?? "") : (w[line] ?? "").padEnd(widths[i]!)))
        .join(GAP)
        .trimEnd(),
    );
  });
  // Rows of several lines are told apart by a blank line between them.
  const spaced = blocks.some((b) => b.length > 1);
  const out = blocks.flatMap((b, i) => (spaced && i > 1 ? ["", ...b] : b));
  if (infos > 0) out.push(`(and ${infos} for information: --json or --out lists them)`);
  return out;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
