import type { AuditAnchorView } from "@hcs/protocol";
import type { Store } from "../store/store.js";
import { type AnchorCheck, checkAnchorOnChain } from "./anchor/anchor-check.js";
import { allCheckpointViews } from "./proofs.js";

export interface AnchorsVerdict {
  /** Finalized anchors checked on chain. */
  readonly checked: number;
  /** Anchors not final yet (sent or pending): they claim nothing, and are not checked. */
  readonly notFinal: number;
  /** The first anchor the chain does not bear out (by checkpoint size), or null. */
  readonly firstMismatch: { readonly size: number; readonly reason: string; readonly message: string } | null;
}

/**
 * Checks every finalized anchor of the log against the chain at `rpcUrl` (the operator's own node or any public
 * one: the chain is the witness, not the service): its transaction is canonical, final, from the anchor contract,
 * and carries the checkpoint's root and size. A node that cannot be reached throws (that proves nothing either way).
 */
export async function verifyAnchors(store: Store, rpcUrl: string): Promise<AnchorsVerdict> {
  let checked = 0;
  let notFinal = 0;
  for (const checkpoint of await allCheckpointViews(store)) {
    if (!checkpoint.anchor) continue;
    const check = await verifyBundleAnchor(checkpoint.anchor, checkpoint, rpcUrl);
    if (check === null) {
      notFinal++;
      continue;
    }
    checked++;
    if (!check.ok) return { checked, notFinal, firstMismatch: { size: checkpoint.size, ...mismatchOf(check) } };
  }
  return { checked, notFinal, firstMismatch: null };
}

const mismatchOf = (c: Extract<AnchorCheck, { ok: false }>) => ({ reason: c.reason, message: c.message });

/** A checkpoint's anchor against the chain (as a proof bundle carries it): a finalized one must be borne out; others
 * claim nothing (null). */
export async function verifyBundleAnchor(
  anchor: AuditAnchorView | null,
  checkpoint: { readonly root_hash: string; readonly size: number },
  rpcUrl: string,
): Promise<AnchorCheck | null> {
  if (anchor?.state !== "finalized" || !anchor.tx_hash) return null;
  return checkAnchorOnChain({
    rpcUrl,
    anchor: {
      chainId: anchor.chain_id,
      contract: anchor.contract,
      txHash: anchor.tx_hash,
      blockNumber: anchor.block_number,
      blockHash: anchor.block_hash,
    },
    rootHash: checkpoint.root_hash,
    size: checkpoint.size,
  });
}
