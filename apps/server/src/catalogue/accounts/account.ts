import { bindOperation } from "../../operations/operation.js";
import { accountOverview } from "../../services/account-overview.js";
import { accountDeclaration } from "./account.declaration.js";

export const accountOperation = bindOperation(accountDeclaration, async (_input, call) => {
  const caller = call.caller!;
  call.setResource(`account:${caller.accountId}`);
  return accountOverview(call.deps, caller, call.deps.config.contactEmail);
});
