import { bindOperation } from "../../operations/operation.js";
import { findingsPage } from "../../services/findings-page.js";
import { findingsDeclaration } from "./findings.declaration.js";

export const findingsOperation = bindOperation(findingsDeclaration, async (input, call) => {
  call.setResource(`practice:${input.npi}`);
  return findingsPage(call.deps, { ...input, accountId: call.caller!.accountId });
});
