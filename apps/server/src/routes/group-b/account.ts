import { AccountOverviewSchema, PLAN_TABLE } from "@hcs/protocol";
import { z } from "zod";
import { defineOperation } from "../../operations/operation.js";
import { accountOverview } from "../../services/account-overview.js";

export const accountOperation = defineOperation({
  id: "getAccount",
  method: "hipaa.account",
  group: "b",
  access: { rule: "own_account" },
  example: {},
  summary: "Your account: balance, plan, rate limits and usage per period",
  description:
    "The calling key's own account: credit balance, plan and tier with the plan's terms and every plan to move to, " +
    "the per-check prices, the rate-limit windows this key is counted in (limit, used before this call, remaining, " +
    `reset), and a usage statement per plan year (${PLAN_TABLE.statement_period_months} months from the plan's ` +
    "start; a change of plan starts a new one): each metered operation's calls, credits charged and refunded, the " +
    "annual minimum and what usage left of it, credits added and the balances — all from the account's credit " +
    "ledger. `contact_email` is where to ask for credits or a plan change. Free.",
  input: z.strictObject({}),
  output: AccountOverviewSchema,
  errors: [],
  readOnly: true,
  openWorld: false,
  implemented: true,
  rest: { method: "get", path: "/v1/a2a/account", headers: { "Cache-Control": "private, no-store" } },
  async run(_input, call) {
    const caller = call.caller!;
    call.setResource(`account:${caller.accountId}`);
    return accountOverview(call.deps, caller, call.deps.config.contactEmail);
  },
});
