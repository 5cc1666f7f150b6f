import { getAddress, type Hex } from "viem";
import { AnchorChain } from "./anchor-chain.js";

/** Why an anchor does not prove its checkpoint (each a precise, different fact). */
export type AnchorMismatch =
  /** The node serves another chain than the anchor's. */
  | "wrong_chain"
  /** No such transaction in the chain's canonical history (never mined, or reorganized away). */
  | "tx_not_found"
  | "tx_reverted"
  /** The transaction holds no Anchored event from the anchor's contract. */
  | "no_anchor_event"
  | "root_mismatch"
  | "size_mismatch"
  /** The transaction is in another block than the anchor records. */
  | "block_mismatch"
  /** Its block is not final yet on the chain (or no longer the canonical block at that height). */
  | "not_finalized";

export type AnchorCheck =
  | {
      readonly ok: true;
      readonly blockNumber: number;
      readonly blockHash: Hex;
      /** The UTC day the event carries (YYYYMMDD). */
      readonly day: number;
      /** The account that sent it: the contract's owner, the log's operator. */
      readonly sender: Hex;
    }
  | { readonly ok: false; readonly reason: AnchorMismatch; readonly message: string };

/** What checkAnchorOnChain needs of an anchor (as findAnchor returns it, or as a proof carries it). */
export interface AnchorToCheck {
  readonly chainId: number;
  readonly contract: string;
  readonly txHash: string;
  readonly blockNumber?: number | null;
  readonly blockHash?: string | null;
}

/**
 * Checks an anchor against the chain itself, trusting only the node at `rpcUrl`: the transaction is in the
 * canonical chain, succeeded, and holds an Anchored event from the anchor's contract carrying this root and size,
 * in a block that is finalized. Returns ok with what the chain says, or the first mismatch. An unreachable node
 * throws AnchorError (anchor_rpc_failed): that says nothing about the anchor.
 */
export async function checkAnchorOnChain(o: {
  rpcUrl: string;
  anchor: AnchorToCheck;
  /** The checkpoint's root hash, hex (with or without 0x). */
  rootHash: string;
  size: number;
  timeoutMs?: number;
}): Promise<AnchorCheck> {
  const { anchor } = o;
  const chain = new AnchorChain({
    rpcUrl: o.rpcUrl,
    chainId: anchor.chainId,
    contract: getAddress(anchor.contract.toLowerCase()),
    ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
  });
  const mismatch = (reason: AnchorMismatch, message: string): AnchorCheck => ({ ok: false, reason, message });
  const served = await chain.chainId();
  if (served !== anchor.chainId)
    return mismatch("wrong_chain", `the node serves chain ${served}, the anchor is on chain ${anchor.chainId}`);
  const mined = await chain.minedTransaction(anchor.txHash as Hex);
  if (!mined) return mismatch("tx_not_found", `transaction ${anchor.txHash} is in no block of chain ${served}`);
  if (!mined.success) return mismatch("tx_reverted", `transaction ${anchor.txHash} reverted`);
  const event = mined.event;
  if (!event)
    return mismatch("no_anchor_event", `transaction ${anchor.txHash} has no Anchored event from ${anchor.contract}`);
  const root = `0x${o.rootHash.replace(/^0x/, "").toLowerCase()}`;
  if (event.root.toLowerCase() !== root)
    return mismatch("root_mismatch", `the anchored root is ${event.root}, the checkpoint's is ${root}`);
  if (event.treeSize !== BigInt(o.size))
    return mismatch("size_mismatch", `the anchored tree size is ${event.treeSize}, the checkpoint's is ${o.size}`);
  const blockNumber = Number(mined.blockNumber);
  if (
    (anchor.blockNumber != null && anchor.blockNumber !== blockNumber) ||
    (anchor.blockHash != null && anchor.blockHash.toLowerCase() !== mined.blockHash.toLowerCase())
  )
    return mismatch(
      "block_mismatch",
      `the transaction is in block ${blockNumber} (${mined.blockHash}), the anchor records block ${anchor.blockNumber ?? "?"} (${anchor.blockHash ?? "?"})`,
    );
  const finalized = await chain.finalizedBlockNumber();
  if (mined.blockNumber > finalized || (await chain.blockHashAt(mined.blockNumber)) !== mined.blockHash)
    return mismatch("not_finalized", `block ${blockNumber} is not finalized (finalized: ${finalized})`);
  return { ok: true, blockNumber, blockHash: mined.blockHash, day: Number(event.day), sender: getAddress(mined.from) };
}
