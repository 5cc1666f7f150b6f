import { FREE_TIER_CREDITS, type FreeKeyRequest, type IssuedKey } from "@hcs/protocol";
import { createAccount } from "./accounts.js";
import { issueApiKey } from "./api-keys.js";
import type { ServiceDeps } from "./deps.js";

/** Self-service free tier (docs/api.md): a new free account with 500 credits and one key, shown once. */
export async function issueFreeKey(deps: ServiceDeps, request: FreeKeyRequest): Promise<IssuedKey> {
  const { account } = await createAccount(deps, {
    name: request.organization,
    plan: "free",
    tier: "standard",
    credits: FREE_TIER_CREDITS,
    email: request.email,
  });
  const key = await issueApiKey(deps, { accountId: account.id, label: "free tier (self-service)" });
  return {
    api_key: key.apiKey,
    key_id: key.keyId,
    account_id: account.id,
    plan: account.plan,
    tier: account.tier,
    credits: account.credits,
    created_at: key.createdAt,
    note: "Store this key now: it is shown only once. Send it in the X-API-Key header. Never put it in client-side code.",
  };
}
