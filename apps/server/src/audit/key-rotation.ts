import { formatNote, utf8Bytes } from "@hcs/protocol";
import type { SecretBox } from "../secrets/master-key.js";
import type { AuditInTransaction } from "../services/audit.js";
import type { Store } from "../store/store.js";
import { handoverText } from "./key-handover.js";
import { generateLogKeyPem, logKeyFromPem } from "./log-key.js";
import { lockLogState, MasterKeyMismatchError } from "./log-keys.js";

export interface KeyRotation {
  readonly previousEpoch: number;
  readonly epoch: number;
  readonly previousVerifierKey: string;
  readonly verifierKey: string;
  /** The log size from which the new key signs: the size the handover states. */
  readonly fromSize: number;
  /** The handover note: a checkpoint at `fromSize` signed by both keys. */
  readonly handover: string;
}

/** The log has no key to hand over from yet (no server has started on the database). */
export class NoLogKeyError extends Error {
  readonly code = "no_log_key" as const;
}

/**
 * Rotates the log's signing key: a new key (sealed under the master key) takes over at the log's current size,
 * with the handover — the checkpoint of that size signed by the previous key and the new one — and the rotation's
 * audit event in the same transaction. The log's state row is locked while it runs, as a checkpoint locks it, so no
 * checkpoint is signed by the previous key beyond the handover's size. Two rotations at once: the second's insert of
 * the same epoch fails and nothing of it is written.
 */
export async function rotateAuditLogKey(
  store: Store,
  secrets: SecretBox,
  o: { now: Date; audit: AuditInTransaction<KeyRotation> },
): Promise<KeyRotation> {
  return store.db.transaction().execute(async (trx) => {
    const state = await lockLogState(trx, store.engine);
    const current = await trx
      .selectFrom("audit_log_keys")
      .select(["epoch", "sealed_key"])
      .orderBy("epoch", "desc")
      .limit(1)
      .executeTakeFirst();
    if (!current || !state.origin)
      throw new NoLogKeyError("the audit log has no key yet: start a server on this database first");
    let previousPem: string;
    try {
      previousPem = secrets.open(current.sealed_key);
    } catch {
      throw new MasterKeyMismatchError();
    }
    const previous = logKeyFromPem(previousPem, state.origin, current.epoch);
    const pem = generateLogKeyPem();
    const next = logKeyFromPem(pem, state.origin, current.epoch + 1);
    const size = Number(state.size);
    const text = handoverText(
      state.origin,
      size,
      Buffer.from(state.root_hash, "hex"),
      previous.verifierKey,
      next.verifierKey,
    );
    const message = utf8Bytes(text);
    const handover = formatNote(text, [
      { name: previous.name, keyHash: previous.keyHash, signature: previous.sign(message) },
      { name: next.name, keyHash: next.keyHash, signature: next.sign(message) },
    ]);
    await trx
      .insertInto("audit_log_keys")
      .values({
        epoch: next.epoch,
        verifier_key: next.verifierKey,
        sealed_key: secrets.seal(pem),
        from_size: size,
        handover,
        created_at: o.now.toISOString(),
      })
      .execute();
    const rotation: KeyRotation = {
      previousEpoch: previous.epoch,
      epoch: next.epoch,
      previousVerifierKey: previous.verifierKey,
      verifierKey: next.verifierKey,
      fromSize: size,
      handover,
    };
    await o.audit(trx, rotation);
    return rotation;
  });
}
