import { bindOperation } from "../../operations/operation.js";
import { complianceDeltaFor } from "../../services/compliance-delta.js";
import { complianceStateFor } from "../../services/compliance-state.js";
import { complianceDeltaDeclaration, complianceStateDeclaration } from "./compliance.declaration.js";

export const complianceStateOperation = bindOperation(complianceStateDeclaration, async ({ npi }, call) => {
  call.setResource(`practice:${npi}`);
  return complianceStateFor(call.deps, npi, call.caller!.accountId);
});

export const complianceDeltaOperation = bindOperation(complianceDeltaDeclaration, async (input, call) => {
  call.setResource(`practice:${input.npi}`);
  return complianceDeltaFor(call.deps, { ...input, accountId: call.caller!.accountId });
});
