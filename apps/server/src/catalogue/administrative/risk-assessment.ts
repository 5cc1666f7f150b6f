import { NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { ResponsesSchema } from "../../administrative/risk/answers.js";
import {
  RiskAssessmentViewSchema,
  riskAssessmentView,
  runSra,
  submitResponses,
} from "../../administrative/risk-assessments.js";
import { defineOperation } from "../../operations/operation.js";
import { practiceOfCaller } from "../../services/practice-of-caller.js";

export const getRiskAssessmentOperation = defineOperation({
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
  implemented: true,
  rest: { method: "get", path: "/v1/risk-assessment" },
  async run({ npi }, call) {
    const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
    call.setResource(`practice:${practice.npi}`);
    return riskAssessmentView(call.deps, practice.npi);
  },
});

export const submitRiskAssessmentOperation = defineOperation({
  id: "submitRiskAssessment",
  group: "a",
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
  openWorld: false,
  implemented: true,
  rest: { method: "post", path: "/v1/risk-assessment", status: 201 },
  async run({ npi, responses }, call) {
    const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
    call.setResource(`practice:${practice.npi}`);
    await submitResponses(call.deps, practice.npi, responses);
    await runSra(call.deps, practice.npi);
    await refreshAdministrativeAssessment(call.deps, practice.npi);
    return riskAssessmentView(call.deps, practice.npi);
  },
});
