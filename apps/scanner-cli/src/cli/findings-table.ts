import { SEVERITIES, type Severity } from "@hcs/protocol";

/** What the table shows of a finding. */
export interface TableFinding {
  readonly severity: Severity;
  readonly title: string;
  readonly host?: string;
  readonly remediation: string;
}

const rank = (s: Severity) => SEVERITIES.indexOf(s);

/** The first sentence of a remediation, cut to `max` characters with an ellipsis. */
export function oneLineFix(remediation: string, max = 70): string {
  const first =
    remediation
      .replace(/\s+/g, " ")
      .trim()
      .split(/(?<=\.)\s/)[0] ?? "";
  return first.length <= max ? first : `${first.slice(0, max - 1).trimEnd()}…`;
}

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/**
 * The findings as a table people read first (as Lynis's warnings and suggestions, or trivy's table): most severe
 * first, then by title; one line each with the host and a one-line fix. Information-only findings are counted, not
 * listed. Pure: lines of text, no colour (the caller paints).
 */
export function findingsTable(findings: readonly TableFinding[]): string[] {
  const listed = findings.filter((f) => f.severity !== "info");
  const infos = findings.length - listed.length;
  if (listed.length === 0)
    return [infos > 0 ? `No findings above information (${infos} for information: --json or --out).` : "No findings."];
  const rows = [...listed]
    .sort((a, b) => rank(a.severity) - rank(b.severity) || a.title.localeCompare(b.title))
    .map((f) => [
      f.severity.toUpperCase(),
      cut(f.title, 60),
      cut(f.host ?? "this host", 24),
      oneLineFix(f.remediation),
    ]);
  const header = ["SEVERITY", "FINDING", "HOST", "FIX"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const out = [line(header), ...rows.map(line)];
  if (infos > 0) out.push(`(and ${infos} for information: --json or --out lists them)`);
  return out;
}
