import { hash, timingSafeEqual } from "node:crypto";
import type { Plan, Tier } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import type { CachedKey } from "../store/key-cache.js";
import { randomBase62 } from "../util/ids.js";
import type { AuditInTransaction } from "./audit.js";
import type { Caller } from "./caller.js";
import { refuseDirectoryAccount } from "./claims/claims.js";
import { revokeDeployTokensOfKeyIn } from "./deploy-tokens.js";
import { iso, type ServiceDeps } from "./deps.js";

/** `hcs_live_<12-char id>_<32-char secret>`: the id finds the row, the secret is checked against its hash. */
const KEY_PATTERN = /^hcs_live_([0-9A-Za-z]{12})_([0-9A-Za-z]{32})$/;
export const API_KEY_PREFIX = "hcs_live_";

// One-shot hash (Node 20.12+): no Hash object per call; ~0.7 against ~1.2 µs on the hot path (every keyed request).
const sha256 = (s: string): Buffer => hash("sha256", s, "buffer") as unknown as Buffer;
// Compared against when the key id is unknown, so a miss costs the same as a hit.
const DUMMY_HASH = sha256("hcs-dummy-secret");

/**
 * Issues a new API key for an account; the key is returned once and only its hash is stored. `auditIn` is written
 * in the key's transaction, given its id.
 */
export async function issueApiKey(
  deps: ServiceDeps,
  input: { accountId: string; label?: string; expiresAt?: Date | null },
  auditIn?: AuditInTransaction<string>,
): Promise<{ apiKey: string; keyId: string; createdAt: string }> {
  const account = await deps.store.db
    .selectFrom("accounts")
    .select("id")
    .where("id", "=", input.accountId)
    .executeTakeFirst();
  if (!account) throw new ServiceError("not_found", `no account ${input.accountId}`);
  refuseDirectoryAccount(input.accountId);
  const idPart = randomBase62(12);
  const secret = randomBase62(32);
  const keyId = `key_${idPart}`;
  const createdAt = iso(deps.now());
  await deps.store.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("api_keys")
      .values({
        id: keyId,
        account_id: input.accountId,
        secret_hash: sha256(secret).toString("hex"),
        label: input.label ?? "",
        created_at: createdAt,
        expires_at: input.expiresAt ? iso(input.expiresAt) : null,
        revoked_at: null,
      })
      .execute();
    await auditIn?.(trx, keyId);
  });
  return { apiKey: `${API_KEY_PREFIX}${idPart}_${secret}`, keyId, createdAt };
}

/** Resolves a presented key to its caller, or throws invalid_credentials / key_revoked. */
export async function authenticateApiKey(deps: ServiceDeps, presented: string): Promise<Caller> {
  const m = KEY_PATTERN.exec(presented);
  if (!m) throw new ServiceError("invalid_credentials", "the API key is not valid");
  const keyId = `key_${m[1]}`;
  const key = deps.store.keys.get(keyId) ?? (await readKey(deps, keyId));
  const matches = timingSafeEqual(key?.secretHash ?? DUMMY_HASH, sha256(m[2]!)) && key !== undefined;
  if (!matches || !key) throw new ServiceError("invalid_credentials", "the API key is not valid");
  if (key.revokedAt !== null) throw new ServiceError("key_revoked", "this API key has been revoked");
  if (key.expiresAt !== null && key.expiresAt <= iso(deps.now())) {
    throw new ServiceError("invalid_credentials", "this API key has expired");
  }
  return { keyId, accountId: key.accountId, plan: key.plan, tier: key.tier };
}

/**
 * A key's row from the store (a cache miss), remembered unless a change came between or the read saw an open
 * transaction's uncommitted rows (SQLite's one connection; the transaction may yet roll back).
 */
async function readKey(deps: ServiceDeps, keyId: string): Promise<CachedKey | undefined> {
  const generation = deps.store.keys.generation();
  const committed = deps.store.keys.readsCommitted();
  const [row] = await deps.store.hot.all<{
    secret_hash: string;
    revoked_at: string | null;
    expires_at: string | null;
    account_id: string;
    plan: string;
    tier: string;
  }>(
    deps.store.db,
    "select k.secret_hash, k.revoked_at, k.expires_at, k.account_id, a.plan, a.tier from api_keys k join accounts a on a.id = k.account_id where k.id = ?",
    [keyId],
  );
  if (!row) return undefined;
  const key: CachedKey = {
    secretHash: Buffer.from(row.secret_hash, "hex"),
    revokedAt: row.revoked_at,
    expiresAt: row.expires_at,
    accountId: row.account_id,
    plan: row.plan as Plan,
    tier: row.tier as Tier,
  };
  if (committed) deps.store.keys.remember(keyId, key, generation);
  return key;
}

/** What revoking a key did. */
export interface KeyRevocation {
  readonly keyId: string;
  /** The account the key billed to. */
  readonly accountId: string;
  readonly revokedAt: string;
  readonly deployTokensRevoked: number;
}

/**
 * Revokes a key by id (idempotent) and, in the same transaction, the still-usable deploy tokens it created. Scanner
 * agents enrolled with those tokens are separate identities and keep working; revoke them one by one. Running it
 * again on a revoked key keeps the first revocation time and revokes any token still left usable. `auditIn` is
 * written in the same transaction.
 */
export async function revokeApiKey(
  deps: ServiceDeps,
  keyId: string,
  auditIn?: AuditInTransaction<KeyRevocation>,
): Promise<KeyRevocation> {
  const now = iso(deps.now());
  const revocation = await deps.store.db.transaction().execute(async (trx) => {
    // One statement, so two revocations racing agree on the first one's time.
    const row = await trx
      .updateTable("api_keys")
      .set((eb) => ({ revoked_at: eb.fn.coalesce("revoked_at", eb.val(now)) }))
      .where("id", "=", keyId)
      .returning(["revoked_at", "account_id"])
      .executeTakeFirst();
    if (!row?.revoked_at) throw new ServiceError("not_found", `no API key ${keyId}`);
    const deployTokensRevoked = await revokeDeployTokensOfKeyIn(trx, keyId, row.revoked_at);
    const revocation = { keyId, accountId: row.account_id, revokedAt: row.revoked_at, deployTokensRevoked };
    await auditIn?.(trx, revocation);
    return revocation;
  });
  deps.store.keys.forgetAll();
  return revocation;
}

export async function listApiKeys(deps: ServiceDeps, accountId: string) {
  return deps.store.db
    .selectFrom("api_keys")
    .select(["id", "label", "created_at", "expires_at", "revoked_at"])
    .where("account_id", "=", accountId)
    .orderBy("created_at")
    .execute();
}
