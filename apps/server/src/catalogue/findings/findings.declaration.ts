import { CREDIT_PRICES, FINDINGS_PAGE_MAX, FindingsPageSchema, FindingsQuerySchema } from "@hcs/protocol";
import { declareOperation } from "../../operations/operation.js";

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
  rest: { method: "get", path: "/v1/a2a/findings/:npi" },
});
