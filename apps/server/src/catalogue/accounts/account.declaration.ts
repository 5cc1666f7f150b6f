import type { AccountOverview } from "@hcs/protocol";
import { AccountOverviewSchema } from "@hcs/protocol";
import { z } from "zod";
import { declareOperation } from "../../operations/operation.js";
import { day, listed, words } from "../summary-text.js";

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
  summarize: accountSummary,
  rest: { method: "get", path: "/v1/a2a/account", headers: { "Cache-Control": "private, no-store" } },
});

export function accountSummary(a: AccountOverview): string {
  const p = a.current_period;
  const credits = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "credit" : "credits"}`;
  const busiest = [...p.usage].sort((x, y) => y.credits - x.credits).map((l) => `${words(l.operation)} ${l.credits}`);
  return [
    `${a.name} is on the ${a.plan_terms.title} plan (${a.tier} tier) with ${credits(a.balance)}.`,
    `This period (${day(p.start)} to ${day(p.end)}): ${credits(p.usage_credits)} used${busiest.length > 0 ? ` — ${listed(busiest, 4)}` : ""}.`,
    p.annual_minimum > 0
      ? `Annual minimum ${credits(p.annual_minimum)}${p.minimum_shortfall > 0 ? `, ${credits(p.minimum_shortfall)} of it not yet used` : ", met"}.`
      : "",
    a.contact_email ? `For credits or another plan: ${a.contact_email}.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}
