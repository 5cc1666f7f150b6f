import { CREDIT_PRICES } from "@hcs/protocol";
import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { runSra, submitResponses } from "../../administrative/risk-assessments.js";
import { bindOperation } from "../../operations/operation.js";
import { sraDeclaration } from "./sra.declaration.js";

export const sraOperation = bindOperation(sraDeclaration, async ({ npi, responses }, call) => {
  call.setResource(`practice:${npi}`);
  // Paid before the assessment is made and stored: a call the balance cannot cover leaves nothing behind.
  await call.reserve(CREDIT_PRICES.sra);
  if (responses && Object.keys(responses).length > 0) await submitResponses(call.deps, npi, responses);
  const report = await runSra(call.deps, npi);
  await refreshAdministrativeAssessment(call.deps, npi);
  return report;
});
