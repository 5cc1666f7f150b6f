import type { Command } from "commander";
import { anchorSummary, unfinishedAnchors } from "../audit/anchor/anchor-records.js";
import { type AnchorConfig, loadAnchorEndpoint } from "../config.js";
import { type CliEnv, openCommandStore, printResult } from "./context.js";

/** Anchors listed by `anchor-status` (the oldest unfinished ones: a longer backlog shows in `pending`). */
const STATUS_ROWS = 20;

/** `audit anchor-deploy` and `audit anchor-status`: the operator's side of anchoring checkpoints on a chain. */
export function registerAnchorCommands(auditCommand: Command, cli: CliEnv): void {
  const json = () => Boolean(auditCommand.parent?.opts().json);

  auditCommand
    .command("anchor-deploy")
    .description(
      "Deploy the anchor contract (HcsAuditAnchor) with the operator's key, which becomes its only sender; prints the address for HCS_ANCHOR_CONTRACT",
    )
    .addHelpText(
      "after",
      "\nReads HCS_ANCHOR_RPC_URL, HCS_ANCHOR_CHAIN_ID and HCS_ANCHOR_KEY_FILE (the account needs funds for the fee).\n\nExample:\n  HCS_ANCHOR_RPC_URL=https://mainnet.base.org HCS_ANCHOR_CHAIN_ID=8453 \\\n    HCS_ANCHOR_KEY_FILE=/etc/hcs/anchor.key hcs-server audit anchor-deploy\n",
    )
    .action(async () => {
      const endpoint = loadAnchorEndpoint(cli.env, cli.cwd);
      const [{ deployAnchorContract }, { loadAnchorAccount }] = await Promise.all([
        import("../audit/anchor/anchor-deploy.js"),
        import("../audit/anchor/anchor-key.js"),
      ]);
      const deployed = await deployAnchorContract(endpoint, loadAnchorAccount(endpoint.keyFile));
      printResult(cli, json(), {
        contract: deployed.address,
        owner: deployed.owner,
        chain_id: deployed.chainId,
        tx_hash: deployed.txHash,
        block: deployed.blockNumber,
      });
      if (!json())
        cli.err(
          `Set HCS_ANCHOR_CONTRACT=${deployed.address} on every serving process, and publish the address: auditors check anchors against it.`,
        );
    });

  auditCommand
    .command("anchor-status")
    .description("Where anchoring stands: the chain and account, the last finalized anchor, and anchors still pending")
    .action(async () => {
      const { store, config } = await openCommandStore(cli);
      try {
        const summary = await anchorSummary(store);
        const unfinished = await unfinishedAnchors(store, STATUS_ROWS);
        const latest = await store.db
          .selectFrom("audit_checkpoints")
          .select("size")
          .orderBy("size", "desc")
          .limit(1)
          .executeTakeFirst();
        const last = summary.lastFinalized;
        const status: Record<string, unknown> = {
          anchoring: config.anchor ? "configured" : "not configured: checkpoints are not anchored",
          latest_checkpoint: latest ? Number(latest.size) : null,
          pending: summary.pending,
          failing: summary.failing,
          last_error: summary.lastError,
          last_finalized_size: last?.size ?? null,
          last_finalized_chain_id: last?.chainId ?? null,
          last_finalized_tx: last?.txHash ?? null,
          last_finalized_block: last?.blockNumber ?? null,
          last_finalized_at: last?.finalizedAt ?? null,
        };
        if (config.anchor) Object.assign(status, await chainStatus(config.anchor));
        const rows = unfinished.map((a) => ({
          size: a.size,
          state: a.state,
          attempts: a.attempts,
          tx_hash: a.txHash,
          block: a.blockNumber,
          last_error: a.lastError,
        }));
        if (json()) {
          printResult(cli, true, { ...status, unfinished: rows });
          return;
        }
        printResult(cli, false, status);
        if (rows.length > 0) {
          cli.out("");
          cli.out(`not finalized yet (oldest ${STATUS_ROWS}):`);
          printResult(cli, false, rows);
        }
      } finally {
        await store.close();
      }
    });
}

/**
 * The chain as the operator's node sees it; a node that cannot be reached is reported, not thrown. The chain client
 * (viem) is loaded here, not when `hcs-server` starts: most commands, `serve` among them, never need it.
 */
async function chainStatus(anchor: AnchorConfig) {
  const [{ formatEther }, { AnchorChain }, { asAnchorError }, { loadAnchorAccount }] = await Promise.all([
    import("viem"),
    import("../audit/anchor/anchor-chain.js"),
    import("../audit/anchor/anchor-errors.js"),
    import("../audit/anchor/anchor-key.js"),
  ]);
  const account = loadAnchorAccount(anchor.keyFile);
  const chain = new AnchorChain({ rpcUrl: anchor.rpcUrl, chainId: anchor.chainId, contract: anchor.contract }, account);
  const base = { chain_id: anchor.chainId, contract: anchor.contract, account: account.address };
  try {
    const served = await chain.chainId();
    return {
      ...base,
      node_chain_id: served,
      finalized_block: Number(await chain.finalizedBlockNumber()),
      balance: `${formatEther(await chain.balance())} (native token)`,
    };
  } catch (err) {
    return { ...base, node_error: asAnchorError(err).message };
  }
}
