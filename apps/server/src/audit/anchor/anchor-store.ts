import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import { iso } from "../../services/deps.js";
import type { AuditAnchorsTable, Database } from "../../store/schema.js";
import type { Store } from "../../store/store.js";

// The write side of audit_anchors: rows for new checkpoints, leases, and what each round found (anchor-records.ts
// reads).

/** An anchor one round holds the lease of, with the checkpoint's root hash (hex, no 0x). */
export interface ClaimedAnchor {
  readonly row: AuditAnchorsTable;
  readonly rootHash: string;
  readonly token: string;
}

/** A day as the Anchored event carries it: YYYYMMDD in UTC (readable as is in any block explorer). */
export function anchorDay(at: string): number {
  const d = new Date(at);
  return d.getUTCFullYear() * 10_000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/**
 * Gives every checkpoint that has no anchor row one, due now, and points anchors not finalized yet at the
 * configured chain and contract (an operator who moved to another chain abandons what was sent on the old one;
 * finalized anchors stay where they are). Returns the number of new rows.
 */
export async function enqueueAnchors(
  store: Pick<Store, "db">,
  target: { chainId: number; contract: string },
  now: Date,
): Promise<number> {
  const at = iso(now);
  await store.db
    .updateTable("audit_anchors")
    .set({ ...resetToPending(at), chain_id: target.chainId, contract: target.contract })
    .where("state", "<>", "finalized")
    .where((eb) => eb.or([eb("chain_id", "<>", target.chainId), eb("contract", "<>", target.contract)]))
    .where((eb) => notLeased(eb, at))
    .execute();
  const fresh = await store.db
    .selectFrom("audit_checkpoints as c")
    .leftJoin("audit_anchors as a", "a.size", "c.size")
    .select(["c.size", "c.created_at"])
    .where("a.size", "is", null)
    .orderBy("c.size")
    .limit(500)
    .execute();
  if (fresh.length === 0) return 0;
  const inserted = await store.db
    .insertInto("audit_anchors")
    .values(
      fresh.map((c) => ({
        size: Number(c.size),
        chain_id: target.chainId,
        contract: target.contract,
        day: anchorDay(c.created_at),
        state: "pending" as const,
        attempts: 0,
        next_attempt_at: at,
        created_at: at,
      })),
    )
    // Another process may enqueue the same checkpoints at the same moment.
    .onConflict((oc) => oc.column("size").doNothing())
    .returning("size")
    .execute();
  return inserted.length;
}

function resetToPending(at: string) {
  return {
    state: "pending" as const,
    tx_hash: null,
    block_number: null,
    block_hash: null,
    attempts: 0,
    last_error: null,
    next_attempt_at: at,
    sent_at: null,
  };
}

function notLeased(eb: ExpressionBuilder<Database, "audit_anchors">, at: string): Expression<SqlBool> {
  return eb.or([eb("lease_expires_at", "is", null), eb("lease_expires_at", "<", at)]);
}

function due(eb: ExpressionBuilder<Database, "audit_anchors">, at: string): Expression<SqlBool> {
  return eb.and([eb("state", "<>", "finalized"), eb("next_attempt_at", "<=", at), notLeased(eb, at)]);
}

/**
 * Leases the due anchor of the smallest checkpoint to one round (`token`) until `leaseMs` from now, or returns null
 * when none is due. The lease is taken by one conditional UPDATE that re-checks "due and not leased": when
 * several processes pick the same row, PostgreSQL makes the later UPDATEs wait for the first and then re-evaluate
 * the condition on the row it wrote — which no longer matches — and SQLite runs one writer at a time; either way
 * exactly one round gets the row, and only that round may send for the checkpoint until its lease lapses.
 */
export async function claimDueAnchor(
  store: Pick<Store, "db">,
  token: string,
  now: Date,
  leaseMs: number,
): Promise<ClaimedAnchor | null> {
  const at = iso(now);
  // A row another process leased between our SELECT and UPDATE is skipped by the next SELECT.
  for (let tries = 0; tries < 3; tries++) {
    const next = await store.db
      .selectFrom("audit_anchors")
      .select("size")
      .where((eb) => due(eb, at))
      .orderBy("size")
      .limit(1)
      .executeTakeFirst();
    if (!next) return null;
    const row = await store.db
      .updateTable("audit_anchors")
      .set({ lease_owner: token, lease_expires_at: iso(now.getTime() + leaseMs) })
      .where("size", "=", next.size)
      .where((eb) => due(eb, at))
      .returningAll()
      .executeTakeFirst();
    if (!row) continue;
    const checkpoint = await store.db
      .selectFrom("audit_checkpoints")
      .select("root_hash")
      .where("size", "=", row.size)
      .executeTakeFirstOrThrow();
    return { row, rootHash: checkpoint.root_hash, token };
  }
  return null;
}

/** The row a round may write: still leased to it (nothing matches once its lease lapsed and another took over). */
function held(store: Pick<Store, "db">, claim: ClaimedAnchor) {
  return store.db
    .updateTable("audit_anchors")
    .where("size", "=", claim.row.size)
    .where("lease_owner", "=", claim.token)
    .where("state", "<>", "finalized");
}

/** Records the hash of a signed transaction before it is broadcast (false: the lease was lost; do not send). */
export async function recordSigned(
  store: Pick<Store, "db">,
  claim: ClaimedAnchor,
  txHash: string,
  now: Date,
): Promise<boolean> {
  const row = await held(store, claim)
    .set({ state: "sent", tx_hash: txHash, block_number: null, block_hash: null, sent_at: iso(now) })
    .returning("size")
    .executeTakeFirst();
  return row !== undefined;
}

/** What a round found out, to be stored: the transaction's block so far, or that it is anchored for good. */
export type AnchorProgress =
  | { readonly kind: "waiting"; readonly blockNumber: number | null; readonly blockHash: string | null }
  | { readonly kind: "finalized"; readonly blockNumber: number; readonly blockHash: string };

/** Ends a round that worked: stores its progress, due again after `pollMs`, and releases the lease. */
export async function recordProgress(
  store: Pick<Store, "db">,
  claim: ClaimedAnchor,
  progress: AnchorProgress,
  now: Date,
  pollMs: number,
): Promise<boolean> {
  const finalized = progress.kind === "finalized";
  const row = await held(store, claim)
    .set({
      state: finalized ? "finalized" : "sent",
      block_number: progress.blockNumber,
      block_hash: progress.blockHash,
      attempts: 0,
      last_error: null,
      next_attempt_at: iso(now.getTime() + pollMs),
      finalized_at: finalized ? iso(now) : null,
      lease_owner: null,
      lease_expires_at: null,
    })
    .returning("size")
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Ends a round that failed: counts it, keeps its (safe) message, and makes the anchor due again after `backoffMs`.
 * With `resend`, the transaction is dropped so that the next round sends a new one.
 */
export async function recordFailure(
  store: Pick<Store, "db">,
  claim: ClaimedAnchor,
  failure: { message: string; backoffMs: number; resend?: boolean },
  now: Date,
): Promise<boolean> {
  const row = await held(store, claim)
    .set((eb) => ({
      attempts: eb("attempts", "+", 1),
      last_error: failure.message.slice(0, 300),
      next_attempt_at: iso(now.getTime() + failure.backoffMs),
      lease_owner: null,
      lease_expires_at: null,
      ...(failure.resend ? { state: "pending" as const, tx_hash: null, block_number: null, block_hash: null } : {}),
    }))
    .returning("size")
    .executeTakeFirst();
  return row !== undefined;
}
