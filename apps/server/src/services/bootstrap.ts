import { randomUUID } from "node:crypto";
import { createAccount } from "./accounts.js";
import { issueApiKey } from "./api-keys.js";
import { iso, type ServiceDeps } from "./deps.js";
import { onAccount, onKeyOf, operatorAudit } from "./operator-audit.js";

export const BOOTSTRAP_CREDITS = 10_000;

export interface BootstrapResult {
  readonly accountId: string;
  readonly apiKey: string;
  readonly keyId: string;
  readonly credits: number;
}

/**
 * On the very first start, creates an operator account (Professional plan, bulk tier) and one key, so a new
 * operator can try every endpoint at once. A row in server_meta makes it happen once even when several
 * processes start together against one database. Both are audited as the operator commands that make them
 * (`operator.accounts.create`, `operator.keys.create`, sharing one request id) by `operator`, the OS user who
 * started the server (null when code started it: tests, the lab).
 */
export async function bootstrapOperatorAccount(
  deps: ServiceDeps,
  operator: string | null = null,
): Promise<BootstrapResult | null> {
  const claimed = await deps.store.db
    .insertInto("server_meta")
    .values({ key: "bootstrap", value: iso(deps.now()) })
    .onConflict((oc) => oc.column("key").doNothing())
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) === 0) return null;
  const run = { operator, requestId: randomUUID(), now: deps.now };
  const { account } = await createAccount(
    deps,
    { name: "Operator", plan: "professional", tier: "bulk", credits: BOOTSTRAP_CREDITS },
    operatorAudit(run, "operator.accounts.create", onAccount),
  );
  const key = await issueApiKey(
    deps,
    { accountId: account.id, label: "bootstrap operator key" },
    operatorAudit(run, "operator.keys.create", onKeyOf(account.id)),
  );
  await deps.store.db.updateTable("server_meta").set({ value: account.id }).where("key", "=", "bootstrap").execute();
  return { accountId: account.id, apiKey: key.apiKey, keyId: key.keyId, credits: account.credits };
}
