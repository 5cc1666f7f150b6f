import type { AgreementTable, ScannerState, Verdict } from "./agreement.js";

const VERDICT: Record<Verdict, string> = {
  agree: "agree",
  disagree: "disagree",
  scanner_misses: "scanner misses",
  inapplicable: "inapplicable here",
};

function scannerCell(s: ScannerState, verdict: Verdict, because: string | undefined): string {
  if (verdict === "inapplicable") return `assessed, nothing raised: ${because ?? "inapplicable"}`;
  switch (s.state) {
    case "raised":
      return s.findings.join(", ");
    case "clear":
      return "assessed, nothing raised";
    case "not_assessed":
    case "no_check":
      return s.reason;
  }
}

const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");

/** The agreement table as Markdown (printed by bench/host-audit, pasted into docs/scanner.md). */
export function formatAgreement(t: AgreementTable): string {
  const out: string[] = [];
  const pct = (x: number | null) => (x === null ? "n/a" : `${(x * 100).toFixed(0)} %`);
  const applicable = t.counts.relevant - t.counts.inapplicable;
  out.push(
    `HIPAA-relevant Lynis items: ${t.counts.relevant} (${t.counts.inapplicable} inapplicable on this machine); agree ${t.counts.agree}, scanner misses ${t.counts.scannerMisses}, disagree ${t.counts.disagree}; matched ${t.counts.agree}/${applicable} applicable = ${pct(t.matchedShare)} (goal ≥ 90 %), ${t.counts.agree}/${t.counts.relevant} of all = ${pct(t.matchedShareAll)}. Scanner extra: ${t.counts.scannerExtra}. Not HIPAA-relevant: ${t.counts.notRelevant}. Unmapped: ${t.counts.unmapped}.`,
    "",
    "| Lynis | kind | item | HIPAA | verdict | scanner |",
    "|---|---|---|---|---|---|",
  );
  const order: Verdict[] = ["agree", "disagree", "scanner_misses", "inapplicable"];
  for (const r of [...t.rows].sort((a, b) => order.indexOf(a.verdict) - order.indexOf(b.verdict))) {
    out.push(
      `| ${r.item.test} | ${r.item.kind} | ${cell(r.item.text)} | ${(r.entry.hipaa ?? []).join(", ")} | ${VERDICT[r.verdict]} | ${cell(scannerCell(r.scanner, r.verdict, r.entry.inapplicable_when?.because))} |`,
    );
  }
  if (t.extra.length > 0) {
    out.push(
      "",
      "Scanner extra (raised by the scanner, not by Lynis):",
      "",
      "| scanner finding | severity | Lynis |",
      "|---|---|---|",
    );
    for (const e of t.extra) out.push(`| ${e.finding.id} | ${e.finding.severity} | ${cell(e.lynis)} |`);
  }
  if (t.notRelevant.length > 0) {
    const tests = [...new Set(t.notRelevant.map((n) => n.item.test))];
    out.push("", `Not HIPAA-relevant (reasons in the mapping): ${tests.join(", ")}.`);
  }
  if (t.unmapped.length > 0) {
    out.push("", "Unmapped (add an entry to the mapping):");
    for (const u of t.unmapped) out.push(`- ${u.test} ${u.kind}: ${u.text}`);
  }
  return out.join("\n");
}
