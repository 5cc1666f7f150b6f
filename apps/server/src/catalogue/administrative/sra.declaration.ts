import { CREDIT_PRICES, NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { ResponsesSchema } from "../../administrative/risk/answers.js";
import { SraReportSchema } from "../../administrative/risk/sra-report.js";
import { declareOperation } from "../../operations/operation.js";

export const sraDeclaration = declareOperation({
  id: "runRiskAssessment",
  method: "hipaa.sra",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi" },
  example: { npi: "1234567893" },
  summary: "Security risk assessment of a practice you own",
  description:
    "A NIST SP 800-30 risk register (threat, vulnerability, likelihood, impact, level, controls in place and missing, " +
    "evidence), the overall level, the gaps and a prioritized remediation plan, from the scans and the questionnaire " +
    "responses (`responses` adds to them first: question id → {answer, note?}; see GET /v1/risk-assessment for the " +
    `questions). Stored and versioned; valid 12 months. Costs ${CREDIT_PRICES.sra} credits.`,
  input: z.strictObject({ npi: NpiSchema, responses: ResponsesSchema.optional() }),
  output: SraReportSchema,
  price: { kind: "metered", operation: "sra" },
  errors: ["invalid_npi", "npi_not_found", "forbidden"],
  readOnly: false,
  openWorld: false,
  rest: { method: "post", path: "/v1/a2a/sra/:npi" },
});
