import { z } from "zod";
import { declareOperation } from "../../operations/operation.js";

const KeyIdSchema = z.string().regex(/^key_[0-9A-Za-z]{12}$/, "a key id");

/*
 * An account's API keys, as the customer portal makes and revokes them (docs/portal.md): operations of the catalogue
 * with no REST twin and no agent method, so only the portal's bridge (portal/web/portal-operations.ts) invokes them —
 * a key cannot mint keys — and their calls are counted and audited by the one pipeline under these names.
 */

export const createApiKeyDeclaration = declareOperation({
  id: "createApiKey",
  group: "b",
  access: { rule: "own_account" },
  example: { label: "billing system" },
  summary: "A new API key of your account, shown once",
  description: "The key is stored as a SHA-256 hash: this answer is the only time it is shown.",
  input: z.strictObject({ label: z.string().trim().max(100).default("") }),
  output: z.object({ key_id: z.string(), api_key: z.string(), created_at: z.iso.datetime() }),
  errors: [],
  readOnly: false,
  openWorld: false,
});

export const revokeApiKeyDeclaration = declareOperation({
  id: "revokeApiKey",
  group: "b",
  access: { rule: "own_account" },
  example: { key_id: "key_0123456789ab" },
  summary: "Revoke an API key of your account, with the deploy tokens it created",
  description:
    "Effective on the next request. The deploy tokens the key created and that are still usable are revoked with it; " +
    "scanners already enrolled keep working. Idempotent.",
  input: z.strictObject({ key_id: KeyIdSchema }),
  output: z.object({ key_id: z.string(), revoked_at: z.iso.datetime(), deploy_tokens_revoked: z.int() }),
  errors: ["not_found"],
  readOnly: false,
  destructive: true,
  openWorld: false,
});
