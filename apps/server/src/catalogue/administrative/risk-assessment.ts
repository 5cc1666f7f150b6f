import { CREDIT_PRICES } from "@hcs/protocol";
import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { riskAssessmentView, runSra, submitResponses } from "../../administrative/risk-assessments.js";
import { bindCapability, bindOperation } from "../../operations/operation.js";
import { practiceOfCaller } from "../../services/practice-of-caller.js";
import { getRiskAssessmentDeclaration, riskAssessmentCapability } from "./risk-assessment.declaration.js";

export const getRiskAssessmentOperation = bindOperation(getRiskAssessmentDeclaration, async ({ npi }, call) => {
  const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
  call.setResource(`practice:${practice.npi}`);
  return riskAssessmentView(call.deps, practice.npi);
});

const riskAssessment = bindCapability(riskAssessmentCapability, async (input, call, group) => {
  // Group A may leave the NPI out (the account's only practice); Group B's access rule has checked the one named.
  const practice = await practiceOfCaller(call.deps, call.caller!.accountId, input.npi);
  call.setResource(`practice:${practice.npi}`);
  // Paid before the assessment is made and stored: a call the balance cannot cover leaves nothing behind.
  if (group === "b") await call.reserve(CREDIT_PRICES.sra);
  // Group A's questionnaire stores what it is sent as a new version; an agent's responses, when it sends any.
  const responses = input.responses;
  if (responses && (group === "a" || Object.keys(responses).length > 0))
    await submitResponses(call.deps, practice.npi, responses);
  const report = await runSra(call.deps, practice.npi);
  await refreshAdministrativeAssessment(call.deps, practice.npi);
  return group === "a" ? riskAssessmentView(call.deps, practice.npi) : report;
});
export const sraOperation = riskAssessment.groupB;
export const submitRiskAssessmentOperation = riskAssessment.groupA;
