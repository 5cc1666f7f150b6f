import { CREDIT_PRICES } from "@hcs/protocol";
import {
  generatePolicies,
  groupADownload,
  groupBDownload,
  listPolicies,
  policyDownload,
} from "../../administrative/policies/policy-documents.js";
import { updateProfile } from "../../administrative/profile.js";
import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { bindCapability, bindOperation, RawBody } from "../../operations/operation.js";
import { practiceOfCaller } from "../../services/practice-of-caller.js";
import {
  generatePoliciesGroupADeclaration,
  policyDownloadCapability,
  policyListCapability,
} from "./policies.declaration.js";

export const range24 = () => Array.from({ length: 24 }, (_, i) => i + 1);

/** Where each group downloads a policy version from: its own REST twin of the download. */
const downloadBaseOf = (group: "a" | "b") => (group === "a" ? groupADownload : groupBDownload);

const policyList = bindCapability(policyListCapability, async (input, call, group) => {
  // Group A may leave the NPI out (the account's only practice); Group B's access rule has checked the one named.
  const practice = await practiceOfCaller(call.deps, call.caller!.accountId, input.npi);
  call.setResource(`practice:${practice.npi}`);
  const generate = "generate" in input ? input.generate : undefined;
  if (!generate) return listPolicies(call.deps, practice.npi, downloadBaseOf(group));
  // Paid before the documents are written: a call the balance cannot cover generates nothing.
  await call.reserve(new Set(generate).size * CREDIT_PRICES.policy_document);
  const generated = await generatePolicies(call.deps, practice.npi, generate);
  await refreshAdministrativeAssessment(call.deps, practice.npi);
  return listPolicies(call.deps, practice.npi, downloadBaseOf(group), generated);
});
export const policiesOperation = policyList.groupB;
export const listPoliciesGroupAOperation = policyList.groupA;

const policyDownloads = bindCapability(policyDownloadCapability, async (input, call) => {
  const practice = await practiceOfCaller(call.deps, call.caller!.accountId, input.npi);
  call.setResource(`policy:${practice.npi}:${input.number}`);
  const doc = await policyDownload(call.deps, practice.npi, input.number, input.format, input.version);
  return new RawBody(doc.contentType, doc.body, {
    ...doc.headers,
    "Content-Disposition": `inline; filename="${doc.filename}"`,
  });
});
export const downloadPolicyOperation = policyDownloads.groupB;
export const downloadPolicyGroupAOperation = policyDownloads.groupA;

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
