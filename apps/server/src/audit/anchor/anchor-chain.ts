import {
  type Address,
  BaseError,
  BlockNotFoundError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  isAddressEqual,
  keccak256,
  parseEventLogs,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { ANCHOR_ABI } from "./anchor-contract.js";
import { AnchorError, asAnchorError } from "./anchor-errors.js";

/** Where anchors live: a node of the chain, the chain it must serve, and the anchor contract. */
export interface AnchorTarget {
  /** May embed a provider's API key: never logged or put in an error. */
  readonly rpcUrl: string;
  readonly chainId: number;
  readonly contract: Address;
  /** Longest wait for one RPC answer (default 10 s); failures are retried by the caller, never here. */
  readonly timeoutMs?: number;
}

/** The fields of one Anchored event. */
export interface AnchoredEvent {
  readonly root: Hex;
  readonly treeSize: bigint;
  readonly day: bigint;
}

/** A mined transaction as the chain's canonical history holds it now. */
export interface MinedTransaction {
  readonly blockNumber: bigint;
  readonly blockHash: Hex;
  readonly success: boolean;
  readonly from: Address;
  /** The Anchored event the anchor contract emitted in it (null: none). */
  readonly event: AnchoredEvent | null;
}

/** A transaction waiting in the node's pool, with what a replacement must outbid. */
export interface PendingTransaction {
  readonly nonce: number;
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
}

/** A signed anchoring transaction, not yet broadcast: its hash is known (and stored) before anyone sees it. */
export interface SignedAnchor {
  readonly hash: Hex;
  readonly serialized: Hex;
}

/** Runs an RPC call; every failure becomes an AnchorError whose message holds no URL. */
async function rpc<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw asAnchorError(err);
  }
}

/** Like rpc, with `null` for "the node does not know it" (a transaction or block that is not on its chain). */
async function rpcOrNull<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (err) {
    if (
      err instanceof TransactionReceiptNotFoundError ||
      err instanceof TransactionNotFoundError ||
      err instanceof BlockNotFoundError
    )
      return null;
    throw asAnchorError(err);
  }
}

/**
 * The anchor contract on its chain, through viem: the reads anchoring and verification need, and (with the
 * operator's account) signing and broadcasting anchors. One HTTP transport, no retries of its own.
 */
export class AnchorChain {
  private readonly chain;
  private readonly client;
  private readonly wallet;
  private contractChecked = false;

  constructor(
    readonly target: AnchorTarget,
    private readonly account: PrivateKeyAccount | null = null,
  ) {
    this.chain = defineChain({
      id: target.chainId,
      name: `chain ${target.chainId}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [target.rpcUrl] } },
    });
    const transport = http(target.rpcUrl, { timeout: target.timeoutMs ?? 10_000, retryCount: 0 });
    this.client = createPublicClient({ chain: this.chain, transport });
    this.wallet = account ? createWalletClient({ account, chain: this.chain, transport }) : null;
  }

  /** The chain the node serves. */
  chainId(): Promise<number> {
    return rpc(() => this.client.getChainId());
  }

  /** Refuses (anchor_wrong_chain) a node that serves another chain than the configured one: a send there is lost. */
  async assertChain(): Promise<void> {
    const served = await this.chainId();
    if (served !== this.target.chainId)
      throw new AnchorError(
        "anchor_wrong_chain",
        `the anchoring node serves chain ${served}, not chain ${this.target.chainId} (HCS_ANCHOR_CHAIN_ID): nothing is sent`,
      );
  }

  /**
   * Refuses (anchor_contract_mismatch) an address without the anchor contract, or with one the operator's key does
   * not own: an anchor sent there would emit nothing, or be refused, and cost a fee every retry. Checked once.
   */
  async assertContract(): Promise<void> {
    if (this.contractChecked) return;
    const { contract } = this.target;
    const code = await rpc(() => this.client.getCode({ address: contract }));
    if (!code || code === "0x")
      throw new AnchorError("anchor_contract_mismatch", `no contract at ${contract} on chain ${this.target.chainId}`);
    const owner = await rpc(() =>
      this.client.readContract({ address: contract, abi: ANCHOR_ABI, functionName: "owner" }),
    );
    const account = this.requireAccount();
    if (!isAddressEqual(owner, account.address))
      throw new AnchorError(
        "anchor_contract_mismatch",
        `the anchor contract ${contract} is owned by ${owner}, not by this key's account ${account.address}`,
      );
    this.contractChecked = true;
  }

  /** The transaction as the canonical chain holds it now, or null when it is in no block. */
  async minedTransaction(hash: Hex): Promise<MinedTransaction | null> {
    const receipt = await rpcOrNull(() => this.client.getTransactionReceipt({ hash }));
    if (!receipt) return null;
    const [event] = parseEventLogs({ abi: ANCHOR_ABI, eventName: "Anchored", logs: receipt.logs }).filter((log) =>
      isAddressEqual(log.address, this.target.contract),
    );
    return {
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      success: receipt.status === "success",
      from: receipt.from,
      event: event ? { root: event.args.root, treeSize: event.args.treeSize, day: event.args.day } : null,
    };
  }

  /** The transaction when the node knows it but it is in no block yet (waiting in its pool), else null. */
  async pendingTransaction(hash: Hex): Promise<PendingTransaction | null> {
    const tx = await rpcOrNull(() => this.client.getTransaction({ hash }));
    if (!tx || tx.blockNumber !== null) return null;
    return {
      nonce: tx.nonce,
      maxFeePerGas: tx.maxFeePerGas ?? tx.gasPrice ?? 0n,
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? tx.gasPrice ?? 0n,
    };
  }

  /** The number of the chain's latest finalized block (the `finalized` tag). */
  async finalizedBlockNumber(): Promise<bigint> {
    return (await rpc(() => this.client.getBlock({ blockTag: "finalized" }))).number;
  }

  /** The hash of the canonical block at `number` (null: the chain is not that long, e.g. after a reorg). */
  async blockHashAt(number: bigint): Promise<Hex | null> {
    return (await rpcOrNull(() => this.client.getBlock({ blockNumber: number })))?.hash ?? null;
  }

  /** The native balance of the operator's account (what pays the fees), in wei. */
  balance(): Promise<bigint> {
    return rpc(() => this.client.getBalance({ address: this.requireAccount().address }));
  }

  /**
   * Simulates `anchor(root, treeSize, day)` (a refusal costs nothing: anchor_refused), then prepares (nonce, gas,
   * fees from the node) and signs the transaction without sending it. With `replacing`, the new transaction takes
   * the stuck one's nonce and outbids its fees by a quarter (nodes replace a pooled transaction for 10% more).
   */
  async signAnchor(root: Hex, treeSize: bigint, day: bigint, replacing?: PendingTransaction): Promise<SignedAnchor> {
    const account = this.requireAccount();
    const call = {
      account,
      address: this.target.contract,
      abi: ANCHOR_ABI,
      functionName: "anchor",
      args: [root, treeSize, day],
    } as const;
    try {
      await this.client.simulateContract(call);
    } catch (err) {
      const revert = err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : null;
      if (revert instanceof ContractFunctionRevertedError)
        throw new AnchorError(
          "anchor_refused",
          `the anchor contract ${this.target.contract} refused the call: ${revert.data?.errorName ?? revert.reason ?? "reverted"}`,
        );
      throw asAnchorError(err);
    }
    const replacement = replacing ? await this.outbid(replacing) : {};
    const request = await rpc(() =>
      this.client.prepareTransactionRequest({
        account,
        chain: this.chain,
        to: this.target.contract,
        data: encodeFunctionData(call),
        ...replacement,
      }),
    );
    // Signed locally with the account (no RPC call): the key never leaves this process.
    const serialized = await this.wallet!.signTransaction(request);
    return { hash: keccak256(serialized), serialized };
  }

  /** Hands a signed transaction to the node. */
  async broadcast(signed: SignedAnchor): Promise<void> {
    await rpc(() => this.client.sendRawTransaction({ serializedTransaction: signed.serialized }));
  }

  private async outbid(stuck: PendingTransaction) {
    const fees = await rpc(() => this.client.estimateFeesPerGas());
    const bump = (old: bigint, current: bigint) => {
      const raised = old + old / 4n + 1n;
      return raised > current ? raised : current;
    };
    return {
      nonce: stuck.nonce,
      maxFeePerGas: bump(stuck.maxFeePerGas, fees.maxFeePerGas),
      maxPriorityFeePerGas: bump(stuck.maxPriorityFeePerGas, fees.maxPriorityFeePerGas),
    };
  }

  private requireAccount(): PrivateKeyAccount {
    if (!this.account) throw new Error("this AnchorChain reads only: it was made without the operator's account");
    return this.account;
  }
}
