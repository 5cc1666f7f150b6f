import { CREDIT_PRICES } from "@hcs/protocol";
import {
  generatePolicies,
  groupBDownload,
  listPolicies,
  policyDownload,
} from "../../administrative/policies/policy-documents.js";
import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { bindOperation, RawBody } from "../../operations/operation.js";
import { downloadPolicyDeclaration, policiesDeclaration } from "./policies-b.declaration.js";

export const policiesOperation = bindOperation(policiesDeclaration, async ({ npi, generate }, call) => {
  call.setResource(`practice:${npi}`);
  if (!generate) return listPolicies(call.deps, npi, groupBDownload);
  // Paid before the documents are written: a call the balance cannot cover generates nothing.
  await call.reserve(new Set(generate).size * CREDIT_PRICES.policy_document);
  const generated = await generatePolicies(call.deps, npi, generate);
  await refreshAdministrativeAssessment(call.deps, npi);
  return listPolicies(call.deps, npi, groupBDownload, generated);
});

export const downloadPolicyOperation = bindOperation(
  downloadPolicyDeclaration,
  async ({ npi, number, format, version }, call) => {
    call.setResource(`policy:${npi}:${number}`);
    const doc = await policyDownload(call.deps, npi, number, format, version);
    return new RawBody(doc.contentType, doc.body, {
      ...doc.headers,
      "Content-Disposition": `inline; filename="${doc.filename}"`,
    });
  },
);
