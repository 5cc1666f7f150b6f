import { CREDIT_PRICES, NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { ResponsesSchema } from "../../administrative/risk/answers.js";
import { RiskAssessmentViewSchema } from "../../administrative/risk/risk-assessment-view.js";
import { SraReportSchema } from "../../administrative/risk/sra-report.js";
import { declareCapability, declareOperation } from "../../operations/operation.js";

export const getRiskAssessmentDeclaration = declareOperation({
  id: "getRiskAssessment",
  group: "a",
  access: { rule: "owner", of: "practice", field: "npi", optional: true },
  example: { npi: "1234567893" },
  summary: "The risk-assessment questionnaire, your responses and the latest SRA",
  description:
    "The questionnaire (versioned; the seven sections of the HHS/ONC SRA Tool, each question mapped to 45 CFR " +
    "controls), questions the scans answer pre-filled from that evidence, the stored responses with any that " +
    "contradict the evidence flagged, and the latest security risk assessment (current, expired after 12 months, or missing).",
  input: z.strictObject({ npi: NpiSchema.optional() }),
  output: RiskAssessmentViewSchema,
  errors: ["invalid_npi", "forbidden", "not_found"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/risk-assessment" },
});

/**
 * The security risk assessment, run from the scans and the questionnaire responses: sold to agents (Group B, priced)
 * and part of the practice manager's questionnaire (Group A, which answers the questionnaire view).
 */
export const riskAssessmentCapability = declareCapability(
  {
    summary: "Security risk assessment of a practice",
    description: "The SRA, run over the questionnaire responses and the scan evidence, stored and versioned.",
    openWorld: false,
  },
  {
    groupB: {
      id: "runRiskAssessment",
      method: "hipaa.sra",
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
      rest: { method: "post", path: "/v1/a2a/sra/:npi" },
    },
    groupA: {
      id: "submitRiskAssessment",
      access: { rule: "owner", of: "practice", field: "npi", optional: true },
      example: { npi: "1234567893", responses: {} },
      summary: "Answer the risk-assessment questionnaire and run the SRA",
      description:
        "`responses`: question id → `{answer: yes|partial|no|unknown|not_applicable, note?}`; they replace the same " +
        "questions' earlier answers in a new version. The security risk assessment is then run over all responses and " +
        "the scan evidence and stored (a response that claims more than the evidence shows is flagged and the " +
        "evidence's answer used). Answers 201 with the questionnaire view.",
      input: z.strictObject({ npi: NpiSchema.optional(), responses: ResponsesSchema }),
      output: RiskAssessmentViewSchema,
      errors: ["invalid_npi", "forbidden", "not_found"],
      readOnly: false,
      rest: { method: "post", path: "/v1/risk-assessment", status: 201 },
    },
  },
);
