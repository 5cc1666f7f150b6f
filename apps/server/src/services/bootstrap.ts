import { createAccount } from "./accounts.js";
import { issueApiKey } from "./api-keys.js";
import { iso, type ServiceDeps } from "./deps.js";

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
 * processes start together against one database.
 */
export async function bootstrapOperatorAccount(deps: ServiceDeps): Promise<BootstrapResult | null> {
  const claimed = await deps.store.db
    .insertInto("server_meta")
    .values({ key: "bootstrap", value: iso(deps.now()) })
    .onConflict((oc) => oc.column("key").doNothing())
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) === 0) return null;
  const { account } = await createAccount(deps, {
    name: "Operator",
    plan: "professional",
    tier: "bulk",
    credits: BOOTSTRAP_CREDITS,
  });
  const key = await issueApiKey(deps, { accountId: account.id, label: "bootstrap operator key" });
  await deps.store.db.updateTable("server_meta").set({ value: account.id }).where("key", "=", "bootstrap").execute();
  return { accountId: account.id, apiKey: key.apiKey, keyId: key.keyId, credits: account.credits };
}
