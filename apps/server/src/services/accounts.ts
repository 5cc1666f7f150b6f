import { randomBytes } from "node:crypto";
import type { Plan, Tier } from "@hcs/protocol";
import { grantCredits } from "../accounting/index.js";
import { ServiceError } from "../errors.js";
import { newId } from "../util/ids.js";
import type { AuditInTransaction } from "./audit.js";
import { iso, type ServiceDeps } from "./deps.js";

export interface AccountView {
  readonly id: string;
  readonly name: string;
  readonly plan: Plan;
  readonly tier: Tier;
  readonly credits: number;
  readonly email: string | null;
  readonly created_at: string;
}

/** A new webhook signing secret (shown to the operator, stored encrypted). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/**
 * Creates a billing account with its opening credits (a ledger row), its plan's first period (account_plans) and its
 * webhook secret; `auditIn` (an operator command's event) is written in the same transaction, given the new
 * account's id.
 */
export async function createAccount(
  deps: ServiceDeps,
  input: { name: string; plan: Plan; tier: Tier; credits: number; email?: string | null },
  auditIn?: AuditInTransaction<string>,
): Promise<{ account: AccountView; webhookSecret: string }> {
  if (!Number.isInteger(input.credits) || input.credits < 0) {
    throw new ServiceError("invalid_body", "credits must be a non-negative integer");
  }
  const id = newId("acct");
  const at = iso(deps.now());
  const webhookSecret = newWebhookSecret();
  await deps.store.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("accounts")
      .values({
        id,
        name: input.name,
        plan: input.plan,
        tier: input.tier,
        credits: 0,
        email: input.email ?? null,
        webhook_secret_enc: deps.secrets.seal(webhookSecret),
        created_at: at,
      })
      .execute();
    // The plan's first period starts with the account (usage statements count plan years from here).
    await trx.insertInto("account_plans").values({ account_id: id, plan: input.plan, started_at: at }).execute();
    if (input.credits > 0)
      await grantCredits(trx, {
        accountId: id,
        amount: input.credits,
        operation: "opening_balance",
        reference: null,
        at,
      });
    await auditIn?.(trx, id);
  });
  const account = await getAccount(deps, id);
  return { account, webhookSecret };
}

/** The account or a not_found error. */
export async function getAccount(deps: ServiceDeps, id: string): Promise<AccountView> {
  const row = await deps.store.db
    .selectFrom("accounts")
    .select(["id", "name", "plan", "tier", "credits", "email", "created_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw new ServiceError("not_found", `no account ${id}`);
  return { ...row, plan: row.plan as Plan, tier: row.tier as Tier };
}

export async function listAccounts(deps: ServiceDeps): Promise<AccountView[]> {
  const rows = await deps.store.db
    .selectFrom("accounts")
    .select(["id", "name", "plan", "tier", "credits", "email", "created_at"])
    .orderBy("created_at")
    .execute();
  return rows.map((r) => ({ ...r, plan: r.plan as Plan, tier: r.tier as Tier }));
}

/**
 * The account's webhook secret in clear (for the operator CLI). Showing a secret is audited: `auditIn` is written
 * in the transaction that reads it, so the secret is never returned unless its showing was recorded.
 */
export async function webhookSecretOf(
  deps: ServiceDeps,
  accountId: string,
  auditIn?: AuditInTransaction<string>,
): Promise<string> {
  const sealed = await deps.store.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("accounts")
      .select("webhook_secret_enc")
      .where("id", "=", accountId)
      .executeTakeFirst();
    if (!row) throw new ServiceError("not_found", `no account ${accountId}`);
    await auditIn?.(trx, accountId);
    return row.webhook_secret_enc;
  });
  return deps.secrets.open(sealed);
}

/** Whether the account has a webhook signing secret (without opening it: the portal shows only that it is set). */
export async function webhookSecretIsSet(deps: ServiceDeps, accountId: string): Promise<boolean> {
  const row = await deps.store.db
    .selectFrom("accounts")
    .select("webhook_secret_enc")
    .where("id", "=", accountId)
    .executeTakeFirst();
  if (!row) throw new ServiceError("not_found", `no account ${accountId}`);
  return row.webhook_secret_enc.length > 0;
}

/** Replaces the account's webhook secret and returns the new one; `auditIn` is written in the same transaction. */
export async function rotateWebhookSecret(
  deps: ServiceDeps,
  accountId: string,
  auditIn?: AuditInTransaction<string>,
): Promise<string> {
  const secret = newWebhookSecret();
  await deps.store.db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("accounts")
      .set({ webhook_secret_enc: deps.secrets.seal(secret) })
      .where("id", "=", accountId)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw new ServiceError("not_found", `no account ${accountId}`);
    await auditIn?.(trx, accountId);
  });
  return secret;
}
