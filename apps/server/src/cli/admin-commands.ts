import { FREE_TIER_CREDITS, PLAN_TABLE, type Plan, PlanSchema, type Tier, TierSchema } from "@hcs/protocol";
import { type Command, InvalidArgumentError, Option } from "commander";
import { createAccount, getAccount, listAccounts, rotateWebhookSecret, webhookSecretOf } from "../services/accounts.js";
import { issueApiKey, type KeyRevocation, listApiKeys, revokeApiKey } from "../services/api-keys.js";
import { onAccount, onKeyOf } from "../services/operator-audit.js";
import { addPractice, listPractices, type PracticeView, setPracticeState } from "../services/practices.js";
import { auditedAs, type CliEnv, printResult, withServices } from "./context.js";

function nonNegativeInt(value: string): number {
  if (!/^[0-9]{1,10}$/.test(value)) throw new InvalidArgumentError("must be a whole number of credits (0 or more)");
  return Number(value);
}

function positiveDays(value: string): number {
  if (!/^[0-9]{1,5}$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError("must be a number of days, 1 or more");
  return Number(value);
}

/**
 * `accounts`, `keys` and `practices`: the operator's administration commands. Each one that changes something (or
 * shows a secret) writes its audit event in the transaction of its change (docs/audit.md).
 */
export function registerAdminCommands(program: Command, cli: CliEnv): void {
  const json = () => Boolean(program.opts().json);

  const accounts = program.command("accounts").description("Billing accounts (plan, tier, credits, webhook secret)");
  accounts
    .command("create")
    .description("Create an account; prints its id and webhook signing secret")
    .requiredOption("--name <name>", "account (organization) name")
    .addOption(new Option("--plan <plan>", "billing plan").choices(PlanSchema.options).makeOptionMandatory())
    .addOption(
      new Option("--tier <tier>", "rate-limit tier for Group B (60 or 600 requests/min)")
        .choices(TierSchema.options)
        .default("standard"),
    )
    .option(
      "--credits <n>",
      `opening credit balance (default: the plan's opening credits — ${FREE_TIER_CREDITS} on free, as a free key's account gets)`,
      nonNegativeInt,
    )
    .option("--email <email>", "contact email")
    .addHelpText(
      "after",
      '\nExample:\n  hcs-server accounts create --name "Sunrise Family Practice" --plan professional --credits 5000\n',
    )
    .action(async (o: { name: string; plan: Plan; tier: Tier; credits?: number; email?: string }) => {
      const credits = o.credits ?? PLAN_TABLE.plans[o.plan].opening_credits;
      const { account, webhookSecret } = await withServices(cli, (deps) =>
        createAccount(
          deps,
          { name: o.name, plan: o.plan, tier: o.tier, credits, email: o.email ?? null },
          auditedAs(cli, deps, "operator.accounts.create", onAccount),
        ),
      );
      printResult(cli, json(), { ...account, webhook_secret: webhookSecret });
      if (!json())
        cli.err(
          "Webhook deliveries to this account are signed with webhook_secret (see docs/webhooks.md). Create a key with: hcs-server keys create --account " +
            account.id,
        );
    });
  accounts
    .command("list")
    .description("List accounts")
    .action(async () => {
      const rows = await withServices(cli, (deps) => listAccounts(deps));
      printResult(cli, json(), rows as unknown as Record<string, unknown>[]);
    });
  accounts
    .command("show <account-id>")
    .description("Show one account")
    .action(async (id: string) => {
      printResult(
        cli,
        json(),
        (await withServices(cli, (deps) => getAccount(deps, id))) as unknown as Record<string, unknown>,
      );
    });
  accounts
    .command("webhook-secret <account-id>")
    .description("Show the account's webhook signing secret, or replace it with --rotate")
    .option("--rotate", "generate a new secret (the old one stops working at once)")
    .action(async (id: string, o: { rotate?: boolean }) => {
      // Showing the secret is audited like rotating it: either reveals a secret.
      const secret = await withServices(cli, (deps) =>
        o.rotate
          ? rotateWebhookSecret(deps, id, auditedAs(cli, deps, "operator.accounts.webhook-secret.rotate", onAccount))
          : webhookSecretOf(deps, id, auditedAs(cli, deps, "operator.accounts.webhook-secret.show", onAccount)),
      );
      printResult(cli, json(), { account_id: id, webhook_secret: secret, rotated: Boolean(o.rotate) });
    });

  const keys = program.command("keys").description("API keys (shown once at creation, stored hashed)");
  keys
    .command("create")
    .description("Issue a new API key for an account; the key is printed once")
    .requiredOption("--account <account-id>", "account the key bills to")
    .option("--label <label>", "what the key is for", "")
    .option("--expires-in-days <days>", "expire the key after this many days", positiveDays)
    .addHelpText(
      "after",
      '\nExample:\n  hcs-server keys create --account acct_XXXXXXXXXXXXXXXX --label "EHR integration"\n',
    )
    .action(async (o: { account: string; label: string; expiresInDays?: number }) => {
      const key = await withServices(cli, (deps) =>
        issueApiKey(
          deps,
          {
            accountId: o.account,
            label: o.label,
            expiresAt: o.expiresInDays ? new Date(Date.now() + o.expiresInDays * 86_400_000) : null,
          },
          auditedAs(cli, deps, "operator.keys.create", onKeyOf(o.account)),
        ),
      );
      printResult(cli, json(), { key_id: key.keyId, api_key: key.apiKey, created_at: key.createdAt });
      if (!json())
        cli.err("Store the key now: it is not shown again. Group B: X-API-Key header; Group A: Authorization: Bearer.");
    });
  keys
    .command("revoke <key-id>")
    .description(
      "Revoke a key (takes effect on the next request) and the deploy tokens it created; scanners keep working",
    )
    .action(async (keyId: string) => {
      const r = await withServices(cli, (deps) =>
        revokeApiKey(
          deps,
          keyId,
          auditedAs(cli, deps, "operator.keys.revoke", (k: KeyRevocation) => onKeyOf(k.accountId)(k.keyId)),
        ),
      );
      printResult(cli, json(), {
        key_id: r.keyId,
        revoked_at: r.revokedAt,
        deploy_tokens_revoked: r.deployTokensRevoked,
      });
    });
  keys
    .command("list")
    .description("List an account's keys (ids only)")
    .requiredOption("--account <account-id>", "account")
    .action(async (o: { account: string }) => {
      const rows = await withServices(cli, (deps) => listApiKeys(deps, o.account));
      printResult(cli, json(), rows as unknown as Record<string, unknown>[]);
    });

  const practices = program.command("practices").description("Practices (NPI, domain, website) owned by accounts");
  practices
    .command("add")
    .description("Register a practice under an account")
    .requiredOption("--npi <npi>", "10-digit NPI")
    .requiredOption("--name <name>", "practice name")
    .requiredOption("--domain <domain>", "email/DNS domain scanned from outside, e.g. sunrise-clinic.example")
    .option("--website <url>", "patient-facing website, e.g. https://www.sunrise-clinic.example/")
    .option("--state <code>", "two-letter state of the practice (breach reports are matched by name within it)")
    .requiredOption("--account <account-id>", "owning account")
    .addHelpText(
      "after",
      '\nExample:\n  hcs-server practices add --npi 1234567893 --name "Sunrise Family Practice" \\\n    --domain sunrise-clinic.example --website https://www.sunrise-clinic.example/ --account acct_XXXXXXXXXXXXXXXX\n',
    )
    .action(
      async (o: { npi: string; name: string; domain: string; website?: string; state?: string; account: string }) => {
        const p = await withServices(cli, (deps) =>
          addPractice(
            deps,
            { npi: o.npi, name: o.name, domain: o.domain, website: o.website, state: o.state, accountId: o.account },
            auditedAs(cli, deps, "operator.practices.add", (added: PracticeView) => ({
              accountId: added.account_id,
              resource: `practice:${added.npi}`,
            })),
          ),
        );
        printResult(cli, json(), p as unknown as Record<string, unknown>);
      },
    );
  practices
    .command("set-state")
    .description("Record a practice's two-letter state (HHS breach reports are matched by name within it)")
    .requiredOption("--npi <npi>", "10-digit NPI")
    .requiredOption("--state <code>", "two-letter state, e.g. OH")
    .action(async (o: { npi: string; state: string }) => {
      const p = await withServices(cli, (deps) =>
        setPracticeState(
          deps,
          o.npi,
          o.state,
          auditedAs(cli, deps, "operator.practices.set-state", (done: PracticeView) => ({
            accountId: done.account_id,
            resource: `practice:${done.npi}`,
          })),
        ),
      );
      printResult(cli, json(), p as unknown as Record<string, unknown>);
    });
  practices
    .command("list")
    .description("List practices")
    .option("--account <account-id>", "only this account's")
    .action(async (o: { account?: string }) => {
      const rows = await withServices(cli, (deps) => listPractices(deps, o.account));
      printResult(cli, json(), rows as unknown as Record<string, unknown>[]);
    });
}
