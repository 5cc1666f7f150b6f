import { ServiceError } from "../../errors.js";
import { bindOperation } from "../../operations/operation.js";
import { issueApiKey, listApiKeys, revokeApiKey } from "../../services/api-keys.js";
import { createApiKeyDeclaration, revokeApiKeyDeclaration } from "./api-keys.declaration.js";

export const createApiKeyOperation = bindOperation(createApiKeyDeclaration, async (input, call) => {
  const key = await issueApiKey(call.deps, { accountId: call.caller!.accountId, label: input.label });
  call.setResource(`key:${key.keyId}`);
  return { key_id: key.keyId, api_key: key.apiKey, created_at: key.createdAt };
});

export const revokeApiKeyOperation = bindOperation(revokeApiKeyDeclaration, async (input, call) => {
  call.setResource(`key:${input.key_id}`);
  // Another account's key is answered as no key at all.
  const keys = await listApiKeys(call.deps, call.caller!.accountId);
  if (!keys.some((k) => k.id === input.key_id)) throw new ServiceError("not_found", "no such key in your account");
  const revoked = await revokeApiKey(call.deps, input.key_id);
  return { key_id: revoked.keyId, revoked_at: revoked.revokedAt, deploy_tokens_revoked: revoked.deployTokensRevoked };
});
