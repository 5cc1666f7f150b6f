import { AccountOverviewSchema } from "@hcs/protocol";
import { z } from "zod";
import { declareOperation } from "../../operations/operation.js";

export const accountDeclaration = declareOperation({
  id: "getAccount",
  method: "hipaa.account",
  group: "b",
  access: { rule: "own_account" },
  example: {},
  summary: "Your account: balance, plan, limits, usage",
  description:
    "The calling key's own account: balance; plan, tier and the plan's terms; the rate-limit windows the key is " +
    "counted in; a usage statement per plan year from the credit ledger (each metered operation's calls, credits " +
    "charged and refunded, the annual minimum and what usage left of it). `contact_email`: where to ask for " +
    "credits or another plan. Free.",
  input: z.strictObject({}),
  output: AccountOverviewSchema,
  errors: [],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/account", headers: { "Cache-Control": "private, no-store" } },
});
