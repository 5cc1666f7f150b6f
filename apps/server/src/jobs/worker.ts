import type { Logger } from "pino";
import type { SecretBox } from "../secrets/master-key.js";
import { recordAssessmentIn } from "../services/grades.js";
import type { JobsTable } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { type DeliveryLoopOptions, WebhookDeliveryLoop } from "../webhooks/delivery-loop.js";
import { JobError, type JobExecutors } from "./executors.js";
import { buildJobResult } from "./job-result.js";
import {
  claimJobs,
  failExhaustedJobs,
  heartbeat,
  markAttemptFailed,
  markCompleted,
  newWorkerId,
  stillHolds,
} from "./queue.js";

export interface WorkerOptions {
  readonly concurrency: number;
  readonly leaseMs: number;
  /** How often to look for due jobs and deliveries when nothing woke the worker. */
  readonly pollMs?: number;
  readonly webhooks: DeliveryLoopOptions;
}

export interface WorkerDeps {
  readonly store: Store;
  readonly secrets: SecretBox;
  readonly now: () => Date;
  readonly logger: Logger;
  readonly executors: JobExecutors;
}

interface Running {
  readonly job: JobsTable;
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

/**
 * The job worker: claims due jobs with a lease (bounded by `concurrency`), heartbeats them, runs their executor,
 * completes them exactly once (the completion transaction re-checks the lease) and retries with backoff. Webhook
 * deliveries run beside it in their own loop, so a slow receiver never holds up claiming. Several workers in
 * several processes can share one PostgreSQL.
 */
export class Worker {
  readonly id = newWorkerId();
  private readonly running = new Map<string, Running>();
  private readonly deliveries: WebhookDeliveryLoop;
  private stopping = false;
  private timer: NodeJS.Timeout | null = null;
  private beat: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private rerun = false;

  constructor(
    private readonly deps: WorkerDeps,
    private readonly options: WorkerOptions,
  ) {
    const { store, secrets, now, logger } = deps;
    this.deliveries = new WebhookDeliveryLoop(
      { db: store.db, engine: store.engine, secrets, now, logger },
      this.id,
      options.webhooks,
      options.pollMs ?? 250,
    );
  }

  start(): void {
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? 250);
    this.beat = setInterval(() => void this.heartbeat(), Math.max(100, Math.floor(this.options.leaseMs / 3)));
    this.timer.unref();
    this.beat.unref();
    this.deliveries.start();
    this.wake();
  }

  /** Looks for jobs now (called after a dispatch in this process, so a new job does not wait for the poll). */
  wake(): void {
    if (this.stopping) return;
    if (this.ticking) {
      this.rerun = true;
      return;
    }
    this.ticking = this.tick()
      .catch((err: unknown) => this.deps.logger.error({ err, worker: this.id }, "worker tick failed"))
      .finally(() => {
        this.ticking = null;
        if (this.rerun) {
          this.rerun = false;
          this.wake();
        }
      });
  }

  /**
   * Stops claiming; waits up to `graceMs` for running jobs and webhook attempts, then aborts them (their leases let
   * others retry).
   */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    // Both wind down within the one grace. A webhook queued by a job ending meanwhile is a durable row: another
    // worker, or this one's next start, sends it.
    await Promise.all([this.stopJobs(graceMs), this.deliveries.stop(graceMs)]);
    if (this.beat) clearInterval(this.beat);
  }

  private async stopJobs(graceMs: number): Promise<void> {
    const all = Promise.all([...this.running.values()].map((r) => r.done));
    const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), graceMs).unref());
    if ((await Promise.race([all, timeout])) === "timeout") for (const r of this.running.values()) r.controller.abort();
    await all;
  }

  /** Jobs this worker is running now. */
  get activeJobs(): number {
    return this.running.size;
  }

  private async tick(): Promise<void> {
    const { store, now } = this.deps;
    const nowMs = now().getTime();
    await failExhaustedJobs(store.db, nowMs);
    const claimed = await claimJobs(store.db, store.engine, {
      workerId: this.id,
      limit: this.options.concurrency - this.running.size,
      leaseMs: this.options.leaseMs,
      nowMs,
    });
    for (const job of claimed) this.run(job);
  }

  private run(job: JobsTable): void {
    const controller = new AbortController();
    const done = this.execute(job, controller.signal)
      .catch((err: unknown) => this.deps.logger.error({ err, job_id: job.id }, "job bookkeeping failed"))
      .finally(() => {
        this.running.delete(job.id);
        // A job that ended may have queued its webhook.
        this.deliveries.wake();
        this.wake();
      });
    this.running.set(job.id, { job, controller, done });
  }

  private async execute(job: JobsTable, signal: AbortSignal): Promise<void> {
    const { store, now, logger, executors } = this.deps;
    const started = performance.now();
    logger.info({ job_id: job.id, attempt: job.attempts, worker: this.id }, "job started");
    try {
      const executor = executors[job.scan_type as keyof JobExecutors];
      if (!executor) throw new JobError("unknown_scan_type", `no executor for scan type ${job.scan_type}`, false);
      const output = await executor(job, signal);
      const outcome = await store.db.transaction().execute(async (trx) => {
        if (!(await stillHolds(trx, job.id, this.id))) return "lost" as const;
        const completedAt = now();
        const grade = await recordAssessmentIn(trx, {
          ...output,
          npi: job.npi,
          at: completedAt,
          reference: `job:${job.id}`,
        });
        const result = await buildJobResult(trx, grade);
        await markCompleted(trx, job, {
          result,
          nowMs: completedAt.getTime(),
          durationMs: performance.now() - started,
        });
        return "completed" as const;
      });
      logger.info({ job_id: job.id, outcome, ms: Math.round(performance.now() - started) }, "job finished");
    } catch (err) {
      const known = err instanceof JobError;
      const code = known ? err.code : "internal";
      const message = known ? err.message : "the scan failed unexpectedly; it will be retried";
      if (!known) logger.error({ err, job_id: job.id }, "job attempt failed");
      const state = await markAttemptFailed(store.db, job, {
        workerId: this.id,
        code,
        message,
        nowMs: now().getTime(),
        retryable: known ? err.retryable : true,
      });
      logger.info({ job_id: job.id, code, state }, "job attempt failed");
    }
  }

  private async heartbeat(): Promise<void> {
    if (this.running.size === 0) return;
    try {
      const held = await heartbeat(this.deps.store.db, {
        workerId: this.id,
        jobIds: [...this.running.keys()],
        leaseMs: this.options.leaseMs,
        nowMs: this.deps.now().getTime(),
      });
      // A job whose lease another worker took over is abandoned here; the other worker owns it now.
      for (const [id, r] of this.running) if (!held.has(id)) r.controller.abort();
    } catch (err) {
      this.deps.logger.warn({ err, worker: this.id }, "heartbeat failed");
    }
  }
}
