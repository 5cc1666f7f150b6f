import { type Address, createPublicClient, createWalletClient, defineChain, type Hex, http } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { AnchorEndpoint } from "../../config.js";
import { ANCHOR_ABI, ANCHOR_BYTECODE } from "./anchor-contract.js";
import { AnchorError, asAnchorError } from "./anchor-errors.js";

export interface DeployedAnchorContract {
  readonly address: Address;
  readonly owner: Address;
  readonly txHash: Hex;
  readonly blockNumber: number;
  readonly chainId: number;
}

/**
 * Deploys HcsAuditAnchor with the operator's account (which becomes its owner, the only account that can anchor)
 * and waits for the receipt. Refuses a node that serves another chain than `endpoint.chainId`.
 */
export async function deployAnchorContract(
  endpoint: Pick<AnchorEndpoint, "rpcUrl" | "chainId">,
  account: PrivateKeyAccount,
  options: { timeoutMs?: number } = {},
): Promise<DeployedAnchorContract> {
  const chain = defineChain({
    id: endpoint.chainId,
    name: `chain ${endpoint.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [endpoint.rpcUrl] } },
  });
  const transport = http(endpoint.rpcUrl, { timeout: options.timeoutMs ?? 30_000, retryCount: 0 });
  const client = createPublicClient({ chain, transport });
  const wallet = createWalletClient({ account, chain, transport });
  try {
    const served = await client.getChainId();
    if (served !== endpoint.chainId)
      throw new AnchorError(
        "anchor_wrong_chain",
        `the node serves chain ${served}, not chain ${endpoint.chainId} (HCS_ANCHOR_CHAIN_ID): nothing was deployed`,
      );
    const txHash = await wallet.deployContract({ abi: ANCHOR_ABI, bytecode: ANCHOR_BYTECODE });
    const receipt = await client.waitForTransactionReceipt({ hash: txHash, timeout: 5 * 60_000 });
    if (receipt.status !== "success" || !receipt.contractAddress)
      throw new AnchorError("anchor_reverted", `the deployment transaction ${txHash} reverted`);
    return {
      address: receipt.contractAddress,
      owner: account.address,
      txHash,
      blockNumber: Number(receipt.blockNumber),
      chainId: served,
    };
  } catch (err) {
    throw asAnchorError(err);
  }
}
