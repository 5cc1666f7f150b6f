import {
  generatePolicies,
  groupADownload,
  listPolicies,
  policyDownload,
} from "../../administrative/policies/policy-documents.js";
import { updateProfile } from "../../administrative/profile.js";
import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { bindOperation, RawBody } from "../../operations/operation.js";
import { practiceOfCaller } from "../../services/practice-of-caller.js";
import {
  downloadPolicyGroupADeclaration,
  generatePoliciesGroupADeclaration,
  listPoliciesGroupADeclaration,
} from "./policies.declaration.js";

export const range24 = () => Array.from({ length: 24 }, (_, i) => i + 1);

export const listPoliciesGroupAOperation = bindOperation(listPoliciesGroupADeclaration, async ({ npi }, call) => {
  const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
  call.setResource(`practice:${practice.npi}`);
  return listPolicies(call.deps, practice.npi, groupADownload);
});

export const generatePoliciesGroupAOperation = bindOperation(
  generatePoliciesGroupADeclaration,
  async ({ npi, policies, profile }, call) => {
    const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
    call.setResource(`practice:${practice.npi}`);
    if (profile) await updateProfile(call.deps, practice.npi, profile);
    const generated = await generatePolicies(call.deps, practice.npi, policies ?? range24());
    await refreshAdministrativeAssessment(call.deps, practice.npi);
    return listPolicies(call.deps, practice.npi, groupADownload, generated);
  },
);

export const downloadPolicyGroupAOperation = bindOperation(
  downloadPolicyGroupADeclaration,
  async ({ npi, number, format, version }, call) => {
    const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
    call.setResource(`policy:${practice.npi}:${number}`);
    const doc = await policyDownload(call.deps, practice.npi, number, format, version);
    return new RawBody(doc.contentType, doc.body, {
      ...doc.headers,
      "Content-Disposition": `inline; filename="${doc.filename}"`,
    });
  },
);
