import { ClaimLoop } from "../util/claim-loop.js";
import { claimDeliveries } from "./deliveries.js";
import { type DeliveryDeps, type DeliveryOptions, runDelivery } from "./delivery-attempt.js";
import { DEFAULT_TOTAL_TIMEOUT_MS } from "./sender.js";

export interface DeliveryLoopOptions extends DeliveryOptions {
  /** Deliveries in flight in this process (default 32). */
  readonly concurrency?: number;
  /** Deliveries in flight to one receiver (callback URL origin), over every worker sharing the database (default 2). */
  readonly perReceiverConcurrency?: number;
}

// Sockets are cheap and each attempt holds at most a few KB, so the process-wide bound is generous: it takes 16
// receivers hanging at once to fill it, and their retries back off while new deliveries to others are due at once.
const DEFAULT_CONCURRENCY = 32;
// Two in flight per receiver keeps one slow or hanging receiver from holding more than a sliver of the slots, and
// still lets a healthy receiver take deliveries faster than one at a time.
const DEFAULT_PER_RECEIVER = 2;
// An attempt ends within the total timeout; the margin covers recording it. A worker that died releases its
// deliveries when the lease lapses.
const LEASE_MARGIN_MS = 5_000;

/**
 * Sends due webhook deliveries beside the job worker, never inside its claiming: its own timer and wake-ups, its
 * own in-flight set bounded per process and per receiver. Claims are leases (see deliveries.ts), so any number of
 * processes may run one against a shared PostgreSQL.
 */
export class WebhookDeliveryLoop {
  private readonly loop: ClaimLoop<string>;
  private readonly concurrency: number;
  private readonly perReceiver: number;
  private readonly leaseMs: number;

  constructor(
    private readonly deps: DeliveryDeps,
    private readonly workerId: string,
    private readonly options: DeliveryLoopOptions,
    pollMs: number,
  ) {
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.perReceiver = options.perReceiverConcurrency ?? DEFAULT_PER_RECEIVER;
    this.leaseMs = (options.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS) + LEASE_MARGIN_MS;
    this.loop = new ClaimLoop(
      () => this.claim(),
      (err) => deps.logger.error({ err, worker: workerId }, "webhook claim failed"),
      pollMs,
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for due deliveries now (after a job ended here, or a slot freed). */
  wake(): void {
    this.loop.wake();
  }

  /**
   * Stops claiming; waits up to `graceMs` for attempts in flight, then interrupts them (an interrupted delivery is
   * handed back, due at once, so another worker or the next start sends it).
   */
  stop(graceMs: number): Promise<void> {
    return this.loop.stop(graceMs);
  }

  /** Deliveries this process is sending now. */
  get activeDeliveries(): number {
    return this.loop.size;
  }

  private async claim(): Promise<void> {
    const free = this.concurrency - this.loop.size;
    if (free <= 0) return;
    const { claimed, deferred } = await claimDeliveries(this.deps.db, this.deps.engine, {
      workerId: this.workerId,
      nowMs: this.deps.now().getTime(),
      leaseMs: this.leaseMs,
      limit: free,
      perReceiver: this.perReceiver,
    });
    for (const d of claimed) {
      this.loop.launch(
        d.id,
        (signal) => runDelivery(this.deps, d, this.workerId, this.options, signal),
        // The lease lapses and another attempt follows; the row is never left claimed for good.
        (err) =>
          this.deps.logger.error(
            { err, delivery_id: d.id, worker: this.workerId },
            "webhook delivery bookkeeping failed",
          ),
      );
    }
    // Receivers that reached their bound this round are left out of the next query, so claiming again at once
    // reaches the deliveries queued behind them; it stops when a round claims nothing.
    if (deferred > 0 && claimed.length > 0) this.loop.claimAgain();
  }
}
