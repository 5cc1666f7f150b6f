import { createHash, randomBytes } from "node:crypto";
import { type DeployTokenResponse, DeployTokenResponseSchema, encodeDeployToken } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import { newId } from "../util/ids.js";
import { iso, type ServiceDeps } from "./deps.js";
import { getOwnedPractice } from "./practices.js";

export const DEFAULT_DEPLOY_TOKEN_HOURS = 24;
export const DEFAULT_DEPLOY_TOKEN_USES = 1;

/** SHA-256 of the whole token: what is stored, so a token edited anywhere (URL, pin, secret) matches nothing. */
export const deployTokenHash = (token: string) => createHash("sha256").update(token.trim()).digest("hex");

/**
 * Issues a deploy token for a practice the account owns (DESIGN §3.5): it carries the server URL and the CA pin
 * so `hcs-scanner register` needs nothing else; it is short-lived, limited in uses and stored hashed.
 */
export async function issueDeployToken(
  deps: ServiceDeps,
  input: {
    accountId: string;
    keyId: string | null;
    npi: string;
    serverUrl: string;
    caSha256: string;
    expiresInHours?: number;
    maxUses?: number;
  },
): Promise<DeployTokenResponse> {
  await getOwnedPractice(deps, input.npi, input.accountId);
  const hours = input.expiresInHours ?? DEFAULT_DEPLOY_TOKEN_HOURS;
  const maxUses = input.maxUses ?? DEFAULT_DEPLOY_TOKEN_USES;
  const token = encodeDeployToken({
    serverUrl: input.serverUrl,
    caSha256: input.caSha256,
    secret: randomBytes(32).toString("base64url"),
  });
  const now = deps.now();
  const expiresAt = iso(new Date(now.getTime() + hours * 3_600_000));
  await deps.store.db
    .insertInto("deploy_tokens")
    .values({
      id: newId("dpt"),
      token_hash: deployTokenHash(token),
      npi: input.npi,
      account_id: input.accountId,
      created_by_key_id: input.keyId,
      created_at: iso(now),
      expires_at: expiresAt,
      max_uses: maxUses,
      uses: 0,
      revoked_at: null,
    })
    .execute();
  return DeployTokenResponseSchema.parse({
    deploy_token: token,
    npi: input.npi,
    expires_at: expiresAt,
    max_uses: maxUses,
    server_url: input.serverUrl,
    ca_sha256: input.caSha256,
    install: {
      npm: "npm install --global @hcs/scanner-cli",
      register: "hcs-scanner register --key-file ./hcs-deploy-token.txt",
      scan: "hcs-scanner scan --targets <clinic subnet in CIDR form>",
      one_shot: "hcs-scanner one-shot --key-file ./hcs-deploy-token.txt --json",
    },
  });
}

/** Revokes every unused or partly used token of a practice (an operator's "stop enrolling" switch). */
export async function revokeDeployTokens(deps: ServiceDeps, npi: string): Promise<number> {
  const r = await deps.store.db
    .updateTable("deploy_tokens")
    .set({ revoked_at: iso(deps.now()) })
    .where("npi", "=", npi)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The token's row for registration, or the reason it cannot be used (typed errors, checked in this order). */
export async function consumeDeployToken(deps: ServiceDeps, token: string) {
  const hash = deployTokenHash(token);
  const now = iso(deps.now());
  // Atomic: the use is counted only if the token is valid at this instant, so two scanners racing for the last
  // use cannot both register.
  const used = await deps.store.db
    .updateTable("deploy_tokens")
    .set((eb) => ({ uses: eb("uses", "+", 1) }))
    .where("token_hash", "=", hash)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now)
    .whereRef("uses", "<", "max_uses")
    .returningAll()
    .executeTakeFirst();
  if (used) return used;
  const row = await deps.store.db
    .selectFrom("deploy_tokens")
    .selectAll()
    .where("token_hash", "=", hash)
    .executeTakeFirst();
  if (!row) throw new ServiceError("invalid_credentials", "this deploy token is not recognised by this server");
  if (row.revoked_at)
    throw new ServiceError("deploy_token_revoked", "this deploy token has been revoked; request a new one");
  if (row.expires_at <= now)
    throw new ServiceError("deploy_token_expired", `this deploy token expired at ${row.expires_at}; request a new one`);
  throw new ServiceError(
    "deploy_token_used",
    `this deploy token has been used ${row.uses} of ${row.max_uses} times; request a new one`,
    {
      max_uses: row.max_uses,
    },
  );
}
