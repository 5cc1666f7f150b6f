import type { Kysely, Transaction } from "kysely";
import type { Logger } from "pino";
import type { SecretBox } from "../secrets/master-key.js";
import { engineCapabilities } from "../store/engine-capabilities.js";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { generateLogKeyPem, type LogKey, logKeyFromPem, readLegacyLogKeyFile } from "./log-key.js";

/**
 * The audit log's keys live in the database (migration 030), the private keys sealed under the master key: every
 * process sharing the database signs with the same key and publishes the same verifier key, and the log's origin is
 * stored with it (docs/audit.md#checkpoints-and-the-log-key). Why the database and not a shared key file:
 * docs/operations.md#several-instances.
 */

/** The master key of this process does not open the log's key: it is not the one the deployment shares. */
export class MasterKeyMismatchError extends Error {
  readonly code = "master_key_mismatch" as const;
  constructor() {
    super(
      "this process's master key (HCS_MASTER_KEY, else <data dir>/master.key) does not open the audit log's key in " +
        "the database: every process sharing a database needs the same HCS_MASTER_KEY (docs/operations.md#several-instances)",
    );
    this.name = "MasterKeyMismatchError";
  }
}

type Executor = Kysely<Database> | Transaction<Database>;

/** The newest key row: the one that signs now. */
const newestKeyRow = (db: Executor) =>
  db
    .selectFrom("audit_log_keys")
    .select(["epoch", "verifier_key", "sealed_key"])
    .orderBy("epoch", "desc")
    .limit(1)
    .executeTakeFirst();

function unseal(secrets: SecretBox, sealed: string): string {
  try {
    return secrets.open(sealed);
  } catch {
    throw new MasterKeyMismatchError();
  }
}

/**
 * The log's signing keys as one process holds them: the current key, unsealed, replaced when another process (or
 * `hcs-server audit rotate-key`) rotated it — at the latest in the transaction of the next checkpoint, which reads the
 * newest key after locking the log's state (see createCheckpoint), so no checkpoint is signed by a key already handed
 * over.
 */
export class AuditLogKeys {
  private constructor(
    private readonly secrets: SecretBox,
    readonly origin: string,
    private key: LogKey,
  ) {}

  /** The keys of a log that has them (null when it has none yet: no server has started on it). */
  static async open(db: Kysely<Database>, secrets: SecretBox): Promise<AuditLogKeys | null> {
    const origin = await logOrigin(db);
    const row = await newestKeyRow(db);
    if (!origin || !row) return null;
    return new AuditLogKeys(secrets, origin, logKeyFromPem(unseal(secrets, row.sealed_key), origin, row.epoch));
  }

  /** The key that signed last as far as this process knows (what /.well-known/hcs-audit-log-key publishes). */
  current(): LogKey {
    return this.key;
  }

  get verifierKey(): string {
    return this.key.verifierKey;
  }

  /** The newest key as `db` (a transaction, or the pool) sees it, unsealing it if it is not the one held. */
  async currentIn(db: Executor): Promise<LogKey> {
    const row = await newestKeyRow(db);
    if (row && row.epoch !== this.key.epoch)
      this.key = logKeyFromPem(unseal(this.secrets, row.sealed_key), this.origin, row.epoch);
    return this.key;
  }
}

/** The log's origin as stored with it (null until it has its first key). */
export async function logOrigin(db: Executor): Promise<string | null> {
  const row = await db.selectFrom("audit_log").select("origin").where("id", "=", 1).executeTakeFirst();
  return row?.origin ?? null;
}

/** The origin line of the log's first checkpoint, if it has one (what the log was named when it was signed). */
async function firstCheckpointOrigin(db: Executor): Promise<string | null> {
  const first = await db.selectFrom("audit_checkpoints").select("note").orderBy("size").limit(1).executeTakeFirst();
  return first ? (first.note.split("\n")[0] ?? null) : null;
}

export interface ProvisionOptions {
  /** The origin a new log gets (the public URL's host and port, then /audit: auditLogOrigin). */
  readonly origin: string;
  readonly now: Date;
  /** A data directory whose audit-log.key (from before migration 030) becomes the first key, if the log has none. */
  readonly dataDir?: string;
  readonly logger?: Logger;
}

/**
 * The log's keys, provisioned on first use: the first process to start on a database fixes the log's origin (the
 * origin of its existing checkpoints, else `origin`) and stores its first key (the data directory's legacy key file,
 * else a new one) — both with a conditional insert, so processes starting together all end up with the one that was
 * stored first. Every later process loads them, and fails with MasterKeyMismatchError when its master key does not
 * open the key: that is the check, at start, that the processes share their master key.
 */
export async function provisionAuditLogKeys(
  store: Store,
  secrets: SecretBox,
  o: ProvisionOptions,
): Promise<AuditLogKeys> {
  const db = store.db;
  if (!(await logOrigin(db))) {
    const origin = (await firstCheckpointOrigin(db)) ?? o.origin;
    await db.updateTable("audit_log").set({ origin }).where("id", "=", 1).where("origin", "is", null).execute();
  }
  const origin = (await logOrigin(db))!;
  const legacy = o.dataDir ? readLegacyLogKeyFile(o.dataDir) : null;
  if (!(await newestKeyRow(db))) {
    const pem = legacy ?? generateLogKeyPem();
    const first = logKeyFromPem(pem, origin, 0);
    const inserted = await db
      .insertInto("audit_log_keys")
      .values({
        epoch: 0,
        verifier_key: first.verifierKey,
        sealed_key: secrets.seal(pem),
        from_size: 0,
        handover: null,
        created_at: o.now.toISOString(),
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0)
      o.logger?.info(
        { verifier_key: first.verifierKey, imported: legacy !== null },
        legacy
          ? "the audit log's key file was imported as the log's first key"
          : "the audit log's first key was created",
      );
  }
  const keys = (await AuditLogKeys.open(db, secrets))!;
  if (legacy !== null) {
    const firstKey = await db
      .selectFrom("audit_log_keys")
      .select("verifier_key")
      .where("epoch", "=", 0)
      .executeTakeFirst();
    if (firstKey && logKeyFromPem(legacy, origin, 0).verifierKey !== firstKey.verifier_key)
      o.logger?.warn(
        { file: `${o.dataDir}/audit-log.key` },
        "this data directory's audit-log.key is not the audit log's key and is not used: the log's keys are in the database",
      );
  }
  return keys;
}

/** The log's keys with what a verifier needs (never the sealed private keys), in epoch order. */
export interface StoredLogKey {
  readonly epoch: number;
  readonly verifierKey: string;
  readonly fromSize: number;
  readonly handover: string | null;
  readonly createdAt: string;
}

export async function readLogKeyChain(db: Executor): Promise<StoredLogKey[]> {
  const rows = await db
    .selectFrom("audit_log_keys")
    .select(["epoch", "verifier_key", "from_size", "handover", "created_at"])
    .orderBy("epoch")
    .execute();
  return rows.map((r) => ({
    epoch: Number(r.epoch),
    verifierKey: r.verifier_key,
    fromSize: Number(r.from_size),
    handover: r.handover,
    createdAt: r.created_at,
  }));
}

/** Locks the log's state row until the transaction ends (store/engine-capabilities.ts: `lockForUpdate`). */
export async function lockLogState(trx: Transaction<Database>, engine: Store["engine"]) {
  const q = trx.selectFrom("audit_log").select(["size", "root_hash", "origin"]).where("id", "=", 1);
  return engineCapabilities(engine).locks.lockForUpdate(q).executeTakeFirstOrThrow();
}

/**
 * The start-up check of a process that signs nothing (`hcs-server worker`): its master key must open the log's key
 * when there is one — the same master key seals the webhook secrets it must decrypt to deliver.
 */
export async function assertSharedMasterKey(db: Kysely<Database>, secrets: SecretBox): Promise<void> {
  await AuditLogKeys.open(db, secrets);
}
