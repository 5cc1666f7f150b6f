import type { Hex } from "viem";
import type { Store } from "../../store/store.js";
import { exponentialBackoffMs } from "../../util/backoff.js";
import type { AnchorChain, AnchoredEvent, PendingTransaction } from "./anchor-chain.js";
import { AnchorError } from "./anchor-errors.js";
import { type ClaimedAnchor, recordFailure, recordProgress, recordSigned } from "./anchor-store.js";

export interface AnchorTiming {
  /** How soon a sent anchor is looked at again (waiting for its block, then for finality). */
  readonly pollMs: number;
  /** Failed rounds back off exponentially from `pollMs` up to this. */
  readonly backoffCapMs: number;
  /** A transaction still in the node's pool this long after it was sent is replaced with higher fees. */
  readonly replaceAfterMs: number;
}

/** What one round did for one checkpoint. */
export type AnchorRoundResult =
  /**
   * A transaction was broadcast: the first for the checkpoint, or one replacing a transaction that vanished from
   * the chain (dropped, or its block reorganized away), or that was stuck in the pool (same nonce, higher fees).
   */
  | {
      readonly kind: "sent";
      readonly txHash: Hex;
      readonly replaced: { readonly txHash: Hex; readonly because: "vanished" | "stuck" } | null;
    }
  /** The transaction waits in the node's pool, or in a block not final yet. */
  | { readonly kind: "waiting"; readonly txHash: Hex; readonly blockNumber: number | null }
  /** Anchored: the transaction's block is at or below the finalized block, and is that number's canonical block. */
  | { readonly kind: "finalized"; readonly txHash: Hex; readonly blockNumber: number }
  | { readonly kind: "failed"; readonly error: AnchorError }
  /** This round's lease lapsed and another round took the anchor over: nothing was written or sent. */
  | { readonly kind: "lost" };

function isThisCheckpoint(event: AnchoredEvent | null, claim: ClaimedAnchor): boolean {
  return (
    event !== null &&
    event.root.toLowerCase() === `0x${claim.rootHash.toLowerCase()}` &&
    event.treeSize === BigInt(claim.row.size) &&
    event.day === BigInt(claim.row.day)
  );
}

/**
 * Moves one leased anchor on by one step, and stores where it stands: looks up the transaction sent before (on
 * the canonical chain as the node sees it now); counts it anchored only when its block is at or below the chain's
 * finalized block and the canonical block at that number is still the one holding it; waits while it is pending;
 * sends a new one when there is none or it vanished (a reorganization dropped its block, or the node dropped it),
 * and replaces one stuck in the pool for `replaceAfterMs` by one with the same nonce and higher fees.
 * A transaction's hash is stored before it is broadcast, so a crash in between leaves a hash to look for, not a
 * transaction nobody knows of. RPC failures are stored with an exponential backoff; store failures are thrown.
 */
export async function runAnchorRound(
  deps: { readonly store: Pick<Store, "db">; readonly chain: AnchorChain; readonly now: () => Date },
  claim: ClaimedAnchor,
  timing: AnchorTiming,
): Promise<AnchorRoundResult> {
  const { store, chain, now } = deps;
  const backoffMs = exponentialBackoffMs(Number(claim.row.attempts) + 1, timing.pollMs, timing.backoffCapMs);
  const fail = async (error: AnchorError, resend = false): Promise<AnchorRoundResult> => {
    const kept = await recordFailure(
      store,
      claim,
      { message: `${error.code}: ${error.message}`, backoffMs, resend },
      now(),
    );
    return kept ? { kind: "failed", error } : { kind: "lost" };
  };
  try {
    await chain.assertChain();
    const previous = claim.row.tx_hash as Hex | null;
    let stuck: PendingTransaction | null = null;
    if (previous) {
      const mined = await chain.minedTransaction(previous);
      if (mined && !(mined.success && isThisCheckpoint(mined.event, claim))) {
        const what = mined.success ? "emitted no Anchored event for this checkpoint" : "reverted";
        return fail(new AnchorError("anchor_reverted", `transaction ${previous} ${what}; a new one follows`), true);
      }
      if (mined) {
        const blockNumber = Number(mined.blockNumber);
        const final =
          mined.blockNumber <= (await chain.finalizedBlockNumber()) &&
          (await chain.blockHashAt(mined.blockNumber)) === mined.blockHash;
        const progress = final
          ? ({ kind: "finalized", blockNumber, blockHash: mined.blockHash } as const)
          : ({ kind: "waiting", blockNumber, blockHash: mined.blockHash } as const);
        if (!(await recordProgress(store, claim, progress, now(), timing.pollMs))) return { kind: "lost" };
        return final
          ? { kind: "finalized", txHash: previous, blockNumber }
          : { kind: "waiting", txHash: previous, blockNumber };
      }
      stuck = await chain.pendingTransaction(previous);
      const sentAt = Date.parse(claim.row.sent_at ?? "") || 0;
      if (stuck && now().getTime() - sentAt < timing.replaceAfterMs) {
        const waiting = { kind: "waiting", blockNumber: null, blockHash: null } as const;
        if (!(await recordProgress(store, claim, waiting, now(), timing.pollMs))) return { kind: "lost" };
        return { kind: "waiting", txHash: previous, blockNumber: null };
      }
    }
    await chain.assertContract();
    const { size, day } = claim.row;
    const signed = await chain.signAnchor(`0x${claim.rootHash}`, BigInt(size), BigInt(day), stuck ?? undefined);
    if (!(await recordSigned(store, claim, signed.hash, now()))) return { kind: "lost" };
    await chain.broadcast(signed);
    const sent = { kind: "waiting", blockNumber: null, blockHash: null } as const;
    if (!(await recordProgress(store, claim, sent, now(), timing.pollMs))) return { kind: "lost" };
    const replaced = previous
      ? { txHash: previous, because: stuck ? ("stuck" as const) : ("vanished" as const) }
      : null;
    return { kind: "sent", txHash: signed.hash, replaced };
  } catch (err) {
    if (!(err instanceof AnchorError)) throw err;
    return fail(err);
  }
}
