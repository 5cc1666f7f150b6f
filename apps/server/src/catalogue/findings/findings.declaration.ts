import type { FindingsPage, Severity } from "@hcs/protocol";
import { CREDIT_PRICES, FINDINGS_PAGE_MAX, FindingsPageSchema, FindingsQuerySchema, SEVERITIES } from "@hcs/protocol";
import { declareOperation } from "../../operations/operation.js";
import { plural, words } from "../summary-text.js";

export const findingsDeclaration = declareOperation({
  id: "listFindings",
  method: "hipaa.findings",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi" },
  example: { npi: "1234567893", severity: ["critical", "high"], limit: 50 },
  summary: "Findings of a practice you own, with HIPAA controls and fixes",
  description:
    "Open (or resolved) findings of the external scan and the internal scanners, most severe first: severity, " +
    "category, evidence, the HIPAA controls each touches and what to fix. Filters: severity (one or more), category, " +
    `source, status, host; \`limit\` up to ${FINDINGS_PAGE_MAX}, and \`cursor\` (the previous page's next_cursor) for ` +
    `the next page. Costs ${CREDIT_PRICES.findings} credits per page.`,
  input: FindingsQuerySchema,
  output: FindingsPageSchema,
  price: { kind: "metered", operation: "findings" },
  errors: ["invalid_npi", "npi_not_found", "forbidden"],
  readOnly: true,
  openWorld: false,
  summarize: findingsSummary,
  rest: { method: "get", path: "/v1/a2a/findings/:npi" },
});

export function findingsSummary(p: FindingsPage): string {
  if (p.findings.length === 0) return `No findings for NPI ${p.npi} match${p.next_cursor ? " on this page" : ""}.`;
  const bySeverity = SEVERITIES.map((s: Severity) => [s, p.findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  const top = p.findings[0]!;
  return [
    `${plural(p.findings.length, `${top.status} finding`)} for NPI ${p.npi}${p.next_cursor ? " on this page" : ""}: ${bySeverity.join(", ")}.`,
    `Most severe: "${top.title}" (${top.severity}, ${words(top.category)}${top.host ? `, host ${top.host}` : ""}; HIPAA ${top.controls.join(", ")}). Fix: ${top.remediation}`,
    p.next_cursor ? "More findings: call again with the next_cursor as cursor." : "",
  ]
    .filter(Boolean)
    .join(" ");
}
