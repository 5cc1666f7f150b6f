import { consistencyProof, formatCheckpoint, formatNote, toHex, utf8Bytes } from "@hcs/protocol";
import type { Store } from "../store/store.js";
import { readLeafHashes } from "./leaves.js";
import { type AuditLogKeys, lockLogState } from "./log-keys.js";
import { NATIVE_RFC9162 } from "./native-hasher.js";

export interface StoredCheckpoint {
  readonly size: number;
  readonly rootHash: string;
  /** The C2SP signed note: checkpoint body and the log key's signature. */
  readonly note: string;
  /** Consistency proof from the previous checkpoint (hex hashes; empty for the first). */
  readonly consistencyFrom: number | null;
  readonly consistencyProof: readonly string[];
  readonly createdAt: string;
  /** The epoch of the key that signed it. */
  readonly keyEpoch: number;
}

/**
 * Signs the log's current tree head as a checkpoint and stores it with the consistency proof from the previous
 * checkpoint, so that anyone holding both can check that the log only grew. Nothing is written when the log has not
 * grown since the last checkpoint (or is empty). Proofs are computed from the stored leaf hashes (a read of the log, once a day).
 * Signed by the log's newest key as read after locking the log's state, which a key rotation also locks: a checkpoint
 * is signed by the previous key only up to the rotation's size, and by the new key from there (key-rotation.ts).
 */
export async function createCheckpoint(store: Store, keys: AuditLogKeys, now: Date): Promise<StoredCheckpoint | null> {
  return store.db.transaction().execute(async (trx) => {
    const state = await lockLogState(trx, store.engine);
    const size = Number(state.size);
    const previous = await trx
      .selectFrom("audit_checkpoints")
      .select(["size"])
      .orderBy("size", "desc")
      .limit(1)
      .executeTakeFirst();
    const fromSize = previous ? Number(previous.size) : null;
    // Nothing to attest: an empty log, or no growth since the last checkpoint.
    if (size === 0 || fromSize === size) return null;
    let proof: string[] = [];
    if (fromSize !== null && fromSize > 0) {
      const leaves = await readLeafHashes(trx, size);
      proof = consistencyProof(NATIVE_RFC9162, leaves, fromSize, size).map(toHex);
    }
    const key = await keys.currentIn(trx);
    const body = formatCheckpoint({
      origin: key.name,
      size,
      rootHash: Buffer.from(state.root_hash, "hex"),
      extensions: [],
    });
    const note = formatNote(body, [{ name: key.name, keyHash: key.keyHash, signature: key.sign(utf8Bytes(body)) }]);
    const checkpoint: StoredCheckpoint = {
      size,
      rootHash: state.root_hash,
      note,
      consistencyFrom: fromSize,
      consistencyProof: proof,
      createdAt: now.toISOString(),
      keyEpoch: key.epoch,
    };
    await trx
      .insertInto("audit_checkpoints")
      .values({
        size,
        root_hash: state.root_hash,
        note,
        consistency_from: fromSize,
        consistency_proof: JSON.stringify(proof),
        created_at: checkpoint.createdAt,
        key_epoch: key.epoch,
      })
      .execute();
    return checkpoint;
  });
}
