import { type AccountOverview, GROUP_A_PLANS, planTermsOf } from "@hcs/protocol";
import { countedWindows, groupAPolicy, groupBPolicy, type WindowState } from "../accounting/index.js";
import { planHistory } from "./account-plans.js";
import { getAccount } from "./accounts.js";
import type { Caller } from "./caller.js";
import { iso, type ServiceDeps } from "./deps.js";
import { statementPeriods, usageStatements } from "./usage-statements.js";

const windowView = (w: WindowState, windowMs: number) => ({
  window_seconds: windowMs / 1000,
  limit: w.limit,
  used: w.count,
  remaining: Math.max(0, w.limit - w.count),
  resets_at: iso(w.resetAtMs),
});

/**
 * The caller's own account (`GET /v1/a2a/account`, `hipaa.account`, the portal's API access page): balance, plan and
 * its terms, the rate-limit windows the call pipeline applies to this caller (its key, or the portal user) with what
 * they have counted, and a usage statement per period from the credit ledger. The plan and tier are the account's
 * now: after `accounts set-plan` they are what the next call is counted and authorized under.
 */
export async function accountOverview(
  deps: ServiceDeps,
  caller: Caller,
  contactEmail: string | null,
): Promise<AccountOverview> {
  const [account, spans] = await Promise.all([getAccount(deps, caller.accountId), planHistory(deps, caller.accountId)]);
  const now: Caller = { ...caller, plan: account.plan, tier: account.tier };
  const periods = statementPeriods(
    spans.length > 0 ? spans : [{ plan: account.plan, start: account.created_at }],
    iso(deps.now()),
  );
  // The policies' buckets are the caller's own (`key:<id>` or `user:<id>`); the anonymous bucket is never used.
  const groupB = groupBPolicy(now, "");
  const groupA = GROUP_A_PLANS.includes(account.plan) ? groupAPolicy(now, "") : null;
  const [statements, bWindows, aWindows] = await Promise.all([
    usageStatements(deps, account.id, periods),
    countedWindows(deps, groupB),
    groupA ? countedWindows(deps, groupA) : null,
  ]);
  const current = statements[statements.length - 1]!;
  return {
    account_id: account.id,
    name: account.name,
    plan: account.plan,
    tier: account.tier,
    balance: account.credits,
    plan_terms: planTermsOf(account.plan),
    rate_limits: {
      counted_per: caller.keyId === null ? "portal_user" : "key",
      group_b: { windows: bWindows.map((w, i) => windowView(w, groupB.windows[i]!.windowMs)) },
      group_a:
        groupA && aWindows ? { windows: aWindows.map((w, i) => windowView(w, groupA.windows[i]!.windowMs)) } : null,
    },
    current_period: current,
    past_periods: statements.slice(0, -1).reverse(),
    contact_email: contactEmail,
  };
}
