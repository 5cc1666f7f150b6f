import { createHash, randomBytes } from "node:crypto";
import {
  type DeployTokenResponse,
  DeployTokenResponseSchema,
  type DeployTokenState,
  type DeployTokenView,
  DeployTokenViewSchema,
  encodeDeployToken,
} from "@hcs/protocol";
import type { Transaction } from "kysely";
import { ServiceError } from "../errors.js";
import type { Executor } from "../store/hot-sql.js";
import type { Database, DeployTokensTable } from "../store/schema.js";
import { newId } from "../util/ids.js";
import type { AuditInTransaction } from "./audit.js";
import { iso, type ServiceDeps } from "./deps.js";
import { assertManages, checkedFilter, type EnrolmentActor, type EnrolmentFilter } from "./enrolment-scope.js";
import { getOwnedPractice } from "./practices.js";

export const DEFAULT_DEPLOY_TOKEN_HOURS = 24;
export const DEFAULT_DEPLOY_TOKEN_USES = 1;

/** SHA-256 of the whole token: what is stored, so a token edited anywhere (URL, pin, secret) matches nothing. */
export const deployTokenHash = (token: string) => createHash("sha256").update(token.trim()).digest("hex");

/**
 * Issues a deploy token for a practice the account owns (docs/api.md#the-internal-scanner): it carries the server URL
 * and the CA pin so `hcs-scanner register` needs nothing else; it is short-lived, limited in uses and stored hashed.
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
    /** How to install the scanner from this server, when it serves the package (else: from the npm registry). */
    install?: Pick<DeployTokenResponse["install"], "npm" | "ca_pem" | "package">;
  },
  /** Written in the token's own transaction, given its id (a portal user's change; API calls settle their own). */
  auditIn?: AuditInTransaction<string>,
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
  const id = newId("dpt");
  const insert = (db: Executor) =>
    db
      .insertInto("deploy_tokens")
      .values({
        id,
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
  if (auditIn)
    await deps.store.db.transaction().execute(async (trx) => {
      await insert(trx);
      await auditIn(trx, id);
    });
  else await insert(deps.store.db);
  return DeployTokenResponseSchema.parse({
    deploy_token: token,
    npi: input.npi,
    expires_at: expiresAt,
    max_uses: maxUses,
    server_url: input.serverUrl,
    ca_sha256: input.caSha256,
    install: {
      npm: "npm install --global @hcs/scanner-cli",
      ...input.install,
      register: "hcs-scanner register --key-file ./hcs-deploy-token.txt",
      scan: "hcs-scanner scan",
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

/**
 * Counts one use of the token inside the registration's transaction and returns its row, or throws why it cannot be
 * used (the code registration answers, checked in the order {@link stateOf} names). A token whose creating API key
 * was revoked is refused too, so tokens left usable by a key revoked before revocation cascaded are refused as well.
 */
export async function consumeDeployToken(trx: Transaction<Database>, token: string, at: Date) {
  const hash = deployTokenHash(token);
  const now = iso(at);
  // Atomic: the use is counted only if the token is valid at this instant, so two scanners racing for the last
  // use cannot both register (PostgreSQL re-checks the conditions once the other's transaction ends).
  const used = await trx
    .updateTable("deploy_tokens")
    .set((eb) => ({ uses: eb("uses", "+", 1) }))
    .where("token_hash", "=", hash)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now)
    .whereRef("uses", "<", "max_uses")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("api_keys")
            .select("api_keys.id")
            .whereRef("api_keys.id", "=", "deploy_tokens.created_by_key_id")
            .where("api_keys.revoked_at", "is not", null),
        ),
      ),
    )
    .returningAll()
    .executeTakeFirst();
  if (used) return used;
  const [row] = await tokenRows(trx).where("t.token_hash", "=", hash).execute();
  if (!row) throw new ServiceError("invalid_credentials", "this deploy token is not recognised by this server");
  const state = stateOf(row, now);
  if (state === "revoked")
    throw new ServiceError("deploy_token_revoked", "this deploy token has been revoked; request a new one");
  if (state === "expired")
    throw new ServiceError("deploy_token_expired", `this deploy token expired at ${row.expires_at}; request a new one`);
  throw new ServiceError(
    "deploy_token_used",
    `this deploy token has been used ${row.uses} of ${row.max_uses} times; request a new one`,
    { max_uses: row.max_uses },
  );
}

/** Token rows with the revocation of the API key that created them (a revoked key revokes its tokens). */
function tokenRows(db: Executor) {
  return db
    .selectFrom("deploy_tokens as t")
    .leftJoin("api_keys as k", "k.id", "t.created_by_key_id")
    .selectAll("t")
    .select("k.revoked_at as key_revoked_at");
}

type TokenRow = DeployTokensTable & { key_revoked_at: string | null };

/** What registration would answer now; revocation first, as consumeDeployToken checks. */
function stateOf(row: TokenRow, now: string): DeployTokenState {
  if (row.revoked_at !== null || row.key_revoked_at !== null) return "revoked";
  if (row.expires_at <= now) return "expired";
  if (row.uses >= row.max_uses) return "used";
  return "active";
}

function tokenView(row: TokenRow, now: string): DeployTokenView {
  return DeployTokenViewSchema.parse({
    token_id: row.id,
    npi: row.npi,
    account_id: row.account_id,
    created_by_key_id: row.created_by_key_id,
    created_at: row.created_at,
    expires_at: row.expires_at,
    uses: row.uses,
    max_uses: row.max_uses,
    revoked_at: row.revoked_at ?? row.key_revoked_at,
    state: stateOf(row, now),
  });
}

/** Deploy tokens of the practices the filter covers, oldest first: metadata and state, never the token or its hash. */
export async function listDeployTokens(
  deps: ServiceDeps,
  actor: EnrolmentActor,
  filter: EnrolmentFilter,
): Promise<DeployTokenView[]> {
  const { npi, accountId } = await checkedFilter(deps, actor, filter);
  let q = tokenRows(deps.store.db).orderBy("t.created_at").orderBy("t.id");
  if (npi !== undefined) q = q.where("t.npi", "=", npi);
  if (accountId !== undefined)
    q = q.where("t.npi", "in", deps.store.db.selectFrom("practices").select("npi").where("account_id", "=", accountId));
  const now = iso(deps.now());
  return (await q.execute()).map((row) => tokenView(row, now));
}

/**
 * Revokes one deploy token by id (idempotent: a revoked token keeps its first revocation time). `auditIn` (an
 * operator command's event) is written in the same transaction, also when the token was revoked already.
 */
export async function revokeDeployToken(
  deps: ServiceDeps,
  actor: EnrolmentActor,
  tokenId: string,
  auditIn?: AuditInTransaction<DeployTokensTable>,
): Promise<DeployTokenView> {
  const find = async () => (await tokenRows(deps.store.db).where("t.id", "=", tokenId).execute())[0];
  const row = await find();
  if (!row) throw new ServiceError("not_found", `no deploy token ${tokenId}`);
  await assertManages(deps, actor, row.npi);
  const now = iso(deps.now());
  const revoked = stateOf(row, now) === "revoked";
  if (revoked && !auditIn) return tokenView(row, now);
  await deps.store.db.transaction().execute(async (trx) => {
    if (!revoked)
      await trx
        .updateTable("deploy_tokens")
        .set({ revoked_at: now })
        .where("id", "=", tokenId)
        .where("revoked_at", "is", null)
        .execute();
    await auditIn?.(trx, row);
  });
  return tokenView((await find())!, now);
}

/**
 * Revokes the still-usable deploy tokens an API key created, inside the key's own revocation transaction; tokens
 * already expired or used up keep that state. Returns how many were revoked.
 */
export async function revokeDeployTokensOfKeyIn(trx: Transaction<Database>, keyId: string, at: string) {
  const r = await trx
    .updateTable("deploy_tokens")
    .set({ revoked_at: at })
    .where("created_by_key_id", "=", keyId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", at)
    .whereRef("uses", "<", "max_uses")
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
