import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { riskAssessmentView, runSra, submitResponses } from "../../administrative/risk-assessments.js";
import { bindOperation } from "../../operations/operation.js";
import { practiceOfCaller } from "../../services/practice-of-caller.js";
import { getRiskAssessmentDeclaration, submitRiskAssessmentDeclaration } from "./risk-assessment.declaration.js";

export const getRiskAssessmentOperation = bindOperation(getRiskAssessmentDeclaration, async ({ npi }, call) => {
  const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
  call.setResource(`practice:${practice.npi}`);
  return riskAssessmentView(call.deps, practice.npi);
});

export const submitRiskAssessmentOperation = bindOperation(
  submitRiskAssessmentDeclaration,
  async ({ npi, responses }, call) => {
    const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
    call.setResource(`practice:${practice.npi}`);
    await submitResponses(call.deps, practice.npi, responses);
    await runSra(call.deps, practice.npi);
    await refreshAdministrativeAssessment(call.deps, practice.npi);
    return riskAssessmentView(call.deps, practice.npi);
  },
);
