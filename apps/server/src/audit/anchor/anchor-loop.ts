import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { getAddress, isAddress } from "viem";
import { type AnchorConfig, ConfigError } from "../../config.js";
import type { Store } from "../../store/store.js";
import { AnchorChain } from "./anchor-chain.js";
import { AnchorError, asAnchorError } from "./anchor-errors.js";
import { loadAnchorAccount } from "./anchor-key.js";
import { type AnchorMetrics, registerAnchorMetrics } from "./anchor-metrics.js";
import { type AnchorSummary, anchorSummary } from "./anchor-records.js";
import { type AnchorRoundResult, type AnchorTiming, runAnchorRound } from "./anchor-round.js";
import type { AnchoringStatus, AnchoringStatusSource } from "./anchor-status.js";
import { claimDueAnchor, enqueueAnchors } from "./anchor-store.js";

export interface AnchorLoopDeps {
  readonly store: Store;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly metrics: AnchorMetrics | null;
}

export interface AnchorLoopOptions extends AnchorTiming {
  /** How long one round may hold an anchor (a round is a handful of RPC calls, each bounded by the RPC timeout). */
  readonly leaseMs?: number;
  /** Most anchors one round works on (the rest wait for the next round). */
  readonly maxPerRound?: number;
}

const DEFAULT_LEASE_MS = 120_000;
const DEFAULT_MAX_PER_ROUND = 20;
/** Failed rounds back off up to this. */
export const ANCHOR_BACKOFF_CAP_MS = 15 * 60_000;
/** A transaction left in the node's pool this long is replaced with higher fees (layer 2 blocks come in seconds). */
export const ANCHOR_REPLACE_AFTER_MS = 5 * 60_000;

/**
 * Anchors audit checkpoints in a serving process: every `pollMs` (and when woken after a checkpoint), gives new
 * checkpoints an anchor row, then works on the due anchors one at a time, oldest checkpoint first (one process
 * sends its transactions one after the other, so their nonces follow). Any number of processes may run one:
 * anchors are leased per round (anchor-store.ts). Keeps the last summary in memory for /readyz and /metrics.
 */
export class AuditAnchorLoop implements AnchoringStatusSource {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private summary: AnchorSummary | null = null;
  /** A failure of the round itself (the store, or the first check of the chain), as opposed to one anchor's. */
  private roundError: string | null = null;
  private chainVerified = false;
  private stopping = false;

  constructor(
    private readonly deps: AnchorLoopDeps,
    private readonly chain: AnchorChain,
    private readonly options: AnchorLoopOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.options.pollMs);
    this.timer.unref();
    void this.tick();
  }

  /** Runs a round now (after a checkpoint was signed), or lets the one under way finish. */
  wake(): void {
    void this.tick();
  }

  /** One round; concurrent callers share the round under way. Never rejects (failures are logged and kept). */
  tick(): Promise<void> {
    if (!this.running) {
      this.running = this.round()
        .catch((err: unknown) => {
          this.roundError = `round failed: ${asAnchorError(err).message}`;
          this.deps.logger.warn({ err: { message: this.roundError } }, "audit anchoring round failed; retrying");
        })
        .finally(() => {
          this.running = null;
        });
    }
    return this.running;
  }

  /** Stops the timer and waits for the round under way, which ends after the anchor it is working on. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  status(): AnchoringStatus {
    const s = this.summary;
    const { chainId, contract } = this.chain.target;
    return {
      status: this.roundError !== null || (s?.failing ?? 0) > 0 ? "degraded" : "ok",
      chain_id: chainId,
      contract,
      pending: s?.pending ?? null,
      failing: s?.failing ?? 0,
      last_error: this.roundError ?? s?.lastError ?? null,
      last_finalized_size: s?.lastFinalized?.size ?? null,
      last_finalized_at: s?.lastFinalized?.finalizedAt ?? null,
    };
  }

  private async round(): Promise<void> {
    const { store, now, metrics } = this.deps;
    const { chainId, contract } = this.chain.target;
    await enqueueAnchors(store, { chainId, contract }, now());
    // A wrong chain or an unreachable node shows at start-up, not only once a checkpoint waits for its anchor; a
    // node that does not serve the configured chain is checked again every round (and each anchor refuses it).
    let roundError: string | null = null;
    if (!this.chainVerified) {
      try {
        await this.chain.assertChain();
        this.chainVerified = true;
      } catch (err) {
        if (!(err instanceof AnchorError)) throw err;
        roundError = `${err.code}: ${err.message}`;
        metrics?.failures.inc({ code: err.code });
      }
    }
    for (let i = 0; i < (this.options.maxPerRound ?? DEFAULT_MAX_PER_ROUND) && !this.stopping; i++) {
      const claim = await claimDueAnchor(store, randomUUID(), now(), this.options.leaseMs ?? DEFAULT_LEASE_MS);
      if (!claim) break;
      this.report(Number(claim.row.size), await runAnchorRound({ store, chain: this.chain, now }, claim, this.options));
    }
    this.roundError = roundError;
    this.summary = await anchorSummary(store);
    metrics?.observe(this.summary);
  }

  private report(size: number, result: AnchorRoundResult): void {
    const { logger, metrics } = this.deps;
    switch (result.kind) {
      case "sent":
        metrics?.transactions.inc({
          kind: result.replaced ? (result.replaced.because === "stuck" ? "replace" : "resend") : "first",
        });
        if (result.replaced?.because === "vanished")
          logger.warn(
            { size, tx_hash: result.txHash, replaced: result.replaced.txHash },
            "audit anchor transaction vanished from the chain (dropped or reorganized away); sent again",
          );
        else if (result.replaced)
          logger.warn(
            { size, tx_hash: result.txHash, replaced: result.replaced.txHash },
            "audit anchor transaction stuck in the node's pool; replaced with higher fees",
          );
        else logger.info({ size, tx_hash: result.txHash }, "audit checkpoint anchor sent");
        return;
      case "finalized":
        logger.info(
          { size, tx_hash: result.txHash, block: result.blockNumber },
          "audit checkpoint anchored (finalized)",
        );
        return;
      case "failed":
        metrics?.failures.inc({ code: result.error.code });
        logger.warn(
          { size, code: result.error.code, reason: result.error.message },
          "audit anchoring failed; retrying",
        );
        return;
      case "lost":
        logger.warn({ size }, "audit anchor taken over by another process (this round's lease lapsed)");
        return;
      case "waiting":
        return;
    }
  }
}

/**
 * The anchoring of a serving process from its configuration: the operator's key (owner-only file), the chain
 * through viem, the metrics in `registry`, and the loop (not started).
 */
export function createAuditAnchoring(
  config: AnchorConfig,
  deps: { store: Store; logger: Logger; now: () => Date; registry: Registry | null },
): AuditAnchorLoop {
  const account = loadAnchorAccount(config.keyFile);
  // Mixed case is an EIP-55 checksum: a typo in it is caught here, before anything is sent to a wrong address.
  if (!isAddress(config.contract, { strict: true }))
    throw new ConfigError("HCS_ANCHOR_CONTRACT", "the address's mixed-case checksum (EIP-55) does not match");
  const contract = getAddress(config.contract);
  const chain = new AnchorChain({ rpcUrl: config.rpcUrl, chainId: config.chainId, contract }, account);
  const metrics = deps.registry ? registerAnchorMetrics(deps.registry) : null;
  return new AuditAnchorLoop({ store: deps.store, logger: deps.logger, now: deps.now, metrics }, chain, {
    pollMs: config.pollMs,
    backoffCapMs: Math.max(config.pollMs, ANCHOR_BACKOFF_CAP_MS),
    replaceAfterMs: Math.max(10 * config.pollMs, ANCHOR_REPLACE_AFTER_MS),
  });
}
