import type { AuditAnchorsTable } from "../../store/schema.js";
import type { Store } from "../../store/store.js";

// The read side of audit_anchors: what proofs, verification, /readyz and the CLI ask. anchor-store.ts writes.

/** A checkpoint's anchor as stored: anchored only when `state` is `finalized`. */
export interface StoredAnchor {
  readonly size: number;
  readonly chainId: number;
  readonly contract: `0x${string}`;
  /** The checkpoint's UTC day as YYYYMMDD (the event's `day`). */
  readonly day: number;
  readonly state: AuditAnchorsTable["state"];
  readonly txHash: `0x${string}` | null;
  readonly blockNumber: number | null;
  readonly blockHash: `0x${string}` | null;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly sentAt: string | null;
  readonly finalizedAt: string | null;
}

/** The anchoring state at a glance, for /readyz, /metrics and `audit anchor-status`. */
export interface AnchorSummary {
  /** Checkpoints whose anchor is not finalized yet. */
  readonly pending: number;
  /** Of those, the ones whose last round failed. */
  readonly failing: number;
  /** The most recent failure among them. */
  readonly lastError: string | null;
  readonly lastFinalized: StoredAnchor | null;
}

function toStoredAnchor(r: AuditAnchorsTable): StoredAnchor {
  return {
    size: Number(r.size),
    chainId: Number(r.chain_id),
    contract: r.contract as `0x${string}`,
    day: Number(r.day),
    state: r.state,
    txHash: r.tx_hash as `0x${string}` | null,
    blockNumber: r.block_number === null ? null : Number(r.block_number),
    blockHash: r.block_hash as `0x${string}` | null,
    attempts: Number(r.attempts),
    lastError: r.last_error,
    sentAt: r.sent_at,
    finalizedAt: r.finalized_at,
  };
}

/** The stored anchor of the checkpoint of `size` (in any state), or null: that checkpoint is not anchored. */
export async function findAnchor(store: Pick<Store, "db">, size: number): Promise<StoredAnchor | null> {
  const row = await store.db.selectFrom("audit_anchors").selectAll().where("size", "=", size).executeTakeFirst();
  return row ? toStoredAnchor(row) : null;
}

/** The finalized anchor of the largest checkpoint (it covers every leaf below its size), or null. */
export async function latestFinalizedAnchor(store: Pick<Store, "db">): Promise<StoredAnchor | null> {
  const row = await store.db
    .selectFrom("audit_anchors")
    .selectAll()
    .where("state", "=", "finalized")
    .orderBy("size", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? toStoredAnchor(row) : null;
}

/** Anchors not finalized yet, oldest checkpoint first (for `audit anchor-status`). */
export async function unfinishedAnchors(store: Pick<Store, "db">, limit: number): Promise<StoredAnchor[]> {
  const rows = await store.db
    .selectFrom("audit_anchors")
    .selectAll()
    .where("state", "<>", "finalized")
    .orderBy("size")
    .limit(limit)
    .execute();
  return rows.map(toStoredAnchor);
}

export async function anchorSummary(store: Pick<Store, "db">): Promise<AnchorSummary> {
  const counts = await store.db
    .selectFrom("audit_anchors")
    .select((eb) => [
      eb.fn.countAll<number | string>().as("pending"),
      eb.fn.sum<number | string | null>(eb.case().when("attempts", ">", 0).then(1).else(0).end()).as("failing"),
    ])
    .where("state", "<>", "finalized")
    .executeTakeFirstOrThrow();
  const failed = await store.db
    .selectFrom("audit_anchors")
    .select("last_error")
    .where("state", "<>", "finalized")
    .where("attempts", ">", 0)
    .orderBy("next_attempt_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return {
    pending: Number(counts.pending),
    failing: Number(counts.failing ?? 0),
    lastError: failed?.last_error ?? null,
    lastFinalized: await latestFinalizedAnchor(store),
  };
}
