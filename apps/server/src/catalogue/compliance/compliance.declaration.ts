import type { ComplianceDelta, ComplianceState } from "@hcs/protocol";
import { ComplianceDeltaQuerySchema, ComplianceDeltaSchema, ComplianceStateSchema, CREDIT_PRICES } from "@hcs/protocol";
import { declareOperation } from "../../operations/operation.js";
import { NpiInputSchema } from "../grades/grade.declaration.js";
import { day, listed, plural } from "../summary-text.js";

export const complianceStateDeclaration = declareOperation({
  id: "getComplianceState",
  method: "hipaa.compliance_state",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi" },
  example: { npi: "1234567893" },
  summary: "The 13 HIPAA requirements of a practice you own: met, partial, not met or unknown",
  description:
    "For each of the 13 requirements (encryption at rest, MFA, segmentation, asset inventory, patching, backups, " +
    "ePHI flows, external scanning, risk assessment, policies, training, BAAs, audit trail): its state, the HIPAA " +
    "controls, the evidence behind it (scanner phases, external checks, administrative records) with the open " +
    `findings that hold it back, and when it was last verified. Costs ${CREDIT_PRICES.compliance_state} credits.`,
  input: NpiInputSchema,
  output: ComplianceStateSchema,
  price: { kind: "metered", operation: "compliance_state" },
  errors: ["invalid_npi", "npi_not_found", "forbidden"],
  readOnly: true,
  openWorld: false,
  summarize: complianceStateSummary,
  rest: { method: "get", path: "/v1/a2a/compliance/:npi" },
});

export const complianceDeltaDeclaration = declareOperation({
  id: "getComplianceDelta",
  method: "hipaa.compliance_delta",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi" },
  example: { npi: "1234567893" },
  summary: "What changed between two assessments of a practice you own",
  description:
    "Score and grade change, each category's change, and the findings first seen or resolved in between. Without " +
    "parameters: the latest assessment against the one before it; `since` (ISO time): the assessment current then " +
    "against the latest; or `from`/`to` assessment ids (asm_…, as this operation returns them). " +
    `Costs ${CREDIT_PRICES.compliance_delta} credits.`,
  input: ComplianceDeltaQuerySchema,
  output: ComplianceDeltaSchema,
  price: { kind: "metered", operation: "compliance_delta" },
  errors: ["invalid_npi", "npi_not_found", "forbidden", "no_grade_yet", "not_found"],
  readOnly: true,
  openWorld: false,
  summarize: complianceDeltaSummary,
  rest: { method: "get", path: "/v1/a2a/compliance/:npi/delta" },
});

export function complianceStateSummary(s: ComplianceState): string {
  const notMet = s.requirements.filter((r) => r.state === "not_met").map((r) => r.title);
  return [
    `NPI ${s.npi}, as of ${day(s.as_of)}: of the 13 HIPAA requirements ${s.summary.met} met, ${s.summary.partial} partial, ${s.summary.not_met} not met, ${s.summary.unknown} unknown.`,
    notMet.length > 0 ? `Not met: ${listed(notMet, 4)}.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

export function complianceDeltaSummary(d: ComplianceDelta): string {
  const sign = (n: number) => (n > 0 ? `+${n}` : String(n));
  return [
    `NPI ${d.npi}: score ${d.from.compliance_score} → ${d.to.compliance_score} (${sign(d.score_change)})`,
    d.grade_change ? `, grade ${d.grade_change}` : `, grade ${d.to.grade} unchanged`,
    ` between ${day(d.from.scan_date)} and ${day(d.to.scan_date)};`,
    ` ${plural(d.new_findings.length, "new finding")}, ${d.resolved_findings.length} resolved.`,
  ].join("");
}
