import { type Plan, PlanSchema, type Tier, TierSchema } from "@hcs/protocol";
import { type Command, InvalidArgumentError, Option } from "commander";
import { type PlanChange, setAccountPlan } from "../services/account-plans.js";
import { creditLedger } from "../services/credit-ledger.js";
import { MAX_BALANCE, type TopUpDone, topUpCredits } from "../services/credit-top-ups.js";
import { onAccount } from "../services/operator-audit.js";
import { auditedAs, type CliEnv, printResult, withServices } from "./context.js";

function positiveCredits(value: string): number {
  if (!/^[0-9]{1,10}$/.test(value) || Number(value) < 1 || Number(value) > MAX_BALANCE)
    throw new InvalidArgumentError(`must be a whole number of credits, 1 to ${MAX_BALANCE}`);
  return Number(value);
}

function ledgerLimit(value: string): number {
  if (!/^[0-9]{1,4}$/.test(value) || Number(value) < 1 || Number(value) > 1000)
    throw new InvalidArgumentError("must be a number of rows, 1 to 1000");
  return Number(value);
}

/**
 * `accounts set-plan` and `credits`: the operator's side of plans and credits (docs/api.md#plans-and-prices). Each
 * change writes its audit event in its transaction (`operator.accounts.set-plan`, `operator.credits.grant`).
 * `accounts` is the command registerAdminCommands made.
 */
export function registerBillingCommands(program: Command, cli: CliEnv): void {
  const json = () => Boolean(program.opts().json);
  const accounts = program.commands.find((c) => c.name() === "accounts");
  if (!accounts) throw new Error("registerBillingCommands: register the accounts command first");

  accounts
    .command("set-plan <account-id>")
    .description("Put an account on a plan (and tier); a change of plan starts a new statement period")
    .addOption(new Option("--plan <plan>", "billing plan").choices(PlanSchema.options).makeOptionMandatory())
    .addOption(
      new Option("--tier <tier>", "rate-limit tier for Group B (60 or 600 requests/min); default: unchanged").choices(
        TierSchema.options,
      ),
    )
    .addHelpText("after", "\nExample:\n  hcs-server accounts set-plan acct_XXXXXXXXXXXXXXXX --plan professional\n")
    .action(async (id: string, o: { plan: Plan; tier?: Tier }) => {
      const change = await withServices(cli, (deps) =>
        setAccountPlan(
          deps,
          { accountId: id, plan: o.plan, ...(o.tier ? { tier: o.tier } : {}) },
          auditedAs(cli, deps, "operator.accounts.set-plan", (c: PlanChange) => onAccount(c.accountId)),
        ),
      );
      printResult(cli, json(), {
        account_id: change.accountId,
        plan: change.plan,
        tier: change.tier,
        previous_plan: change.previous.plan,
        previous_tier: change.previous.tier,
        new_period: change.newPeriod,
        at: change.at,
      });
      if (!json())
        cli.err("The account's keys are authorized and limited under the new plan and tier from their next call.");
    });

  const credits = program.command("credits").description("Credit balances: grants (top-ups) and the ledger");
  credits
    .command("grant")
    .description("Add credits to an account (a paid invoice, a goodwill grant); written to its ledger as `grant`")
    .requiredOption("--account <account-id>", "the account to credit")
    .requiredOption("--credits <n>", "how many credits to add", positiveCredits)
    .option("--reference <ref>", "what paid for them (invoice or payment id): credited once per account")
    .addHelpText(
      "after",
      "\nExample:\n  hcs-server credits grant --account acct_XXXXXXXXXXXXXXXX --credits 5000 --reference INV-2026-0042\n",
    )
    .action(async (o: { account: string; credits: number; reference?: string }) => {
      const done = await withServices(cli, (deps) =>
        topUpCredits(
          deps,
          { accountId: o.account, credits: o.credits, reference: o.reference ?? null },
          auditedAs(cli, deps, "operator.credits.grant", (d: TopUpDone) => onAccount(d.accountId)),
        ),
      );
      printResult(cli, json(), {
        account_id: done.accountId,
        credits: done.credits,
        balance: done.balance,
        reference: done.reference,
        at: done.at,
      });
    });
  credits
    .command("ledger")
    .description("An account's latest credit movements, newest first")
    .requiredOption("--account <account-id>", "the account")
    .option("--limit <n>", "rows to show (1 to 1000)", ledgerLimit, 50)
    .action(async (o: { account: string; limit: number }) => {
      const rows = await withServices(cli, (deps) => creditLedger(deps, o.account, o.limit));
      printResult(cli, json(), rows as unknown as Record<string, unknown>[]);
    });
}
