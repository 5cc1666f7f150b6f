import { BaseError } from "viem";

export type AnchorErrorCode =
  /** The node could not be reached, timed out or answered with an error. */
  | "anchor_rpc_failed"
  /** The node serves another chain than HCS_ANCHOR_CHAIN_ID: nothing is sent. */
  | "anchor_wrong_chain"
  /** The address holds no anchor contract, or one owned by another key: nothing is sent. */
  | "anchor_contract_mismatch"
  /** The contract refused the call in simulation (so nothing was sent, and no fee paid). */
  | "anchor_refused"
  /** The transaction was mined but reverted, or emitted no matching Anchored event: it is sent again. */
  | "anchor_reverted";

/** A failed anchoring step. Messages name the chain, contract and transaction, never the key or the RPC URL. */
export class AnchorError extends Error {
  constructor(
    readonly code: AnchorErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "AnchorError";
  }
}

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

/**
 * One line about an RPC failure that is safe to store, log and show on /readyz: viem's short message and details,
 * with every URL removed — viem's messages carry the request URL, and a provider's URL often embeds its API key.
 */
export function describeRpcError(err: unknown): string {
  let text: string;
  if (err instanceof BaseError) text = err.details ? `${err.shortMessage} (${err.details})` : err.shortMessage;
  else text = err instanceof Error ? err.message : String(err);
  return text.replace(URL_PATTERN, "<url>").replace(/\s+/g, " ").trim().slice(0, 300);
}

/** The failure as an AnchorError: kept when it is one, else an RPC failure described safely. */
export function asAnchorError(err: unknown): AnchorError {
  return err instanceof AnchorError ? err : new AnchorError("anchor_rpc_failed", describeRpcError(err));
}
