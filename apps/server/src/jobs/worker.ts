import type { Logger } from "pino";
import { recordScanBasisIn } from "../reports/scan-basis.js";
import type { SecretBox } from "../secrets/master-key.js";
import { claimScanResultIn } from "../services/claims/claim-scan.js";
import { recordAssessmentIn } from "../services/grades.js";
import { withServerSiteFindings } from "../services/intel/site-intel.js";
import type { JobsTable } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { ClaimLoop } from "../util/claim-loop.js";
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
import { auditJobCompletion } from "./worker-audit.js";

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

/**
 * The job worker: claims due jobs with a lease (bounded by `concurrency`), heartbeats them, runs their executor,
 * completes them exactly once (the completion transaction re-checks the lease) and retries with backoff. Webhook
 * deliveries run beside it in their own loop, so a slow receiver never holds up claiming. Several workers in
 * several processes can share one PostgreSQL.
 */
export class Worker {
  readonly id = newWorkerId();
  private readonly jobs: ClaimLoop<string>;
  private readonly deliveries: WebhookDeliveryLoop;
  private beat: NodeJS.Timeout | null = null;

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
    this.jobs = new ClaimLoop(
      () => this.tick(),
      (err) => logger.error({ err, worker: this.id }, "worker tick failed"),
      options.pollMs ?? 250,
    );
  }

  start(): void {
    this.beat = setInterval(() => void this.heartbeat(), Math.max(100, Math.floor(this.options.leaseMs / 3)));
    this.beat.unref();
    this.deliveries.start();
    this.jobs.start();
  }

  /** Looks for jobs now (called after a dispatch in this process, so a new job does not wait for the poll). */
  wake(): void {
    this.jobs.wake();
  }

  /**
   * Stops claiming; waits up to `graceMs` for running jobs and webhook attempts, then aborts them (their leases let
   * others retry).
   */
  async stop(graceMs = 10_000): Promise<void> {
    // Both wind down within the one grace. A webhook queued by a job ending meanwhile is a durable row: another
    // worker, or this one's next start, sends it.
    await Promise.all([this.jobs.stop(graceMs), this.deliveries.stop(graceMs)]);
    if (this.beat) clearInterval(this.beat);
  }

  /** Jobs this worker is running now. */
  get activeJobs(): number {
    return this.jobs.size;
  }

  private async tick(): Promise<void> {
    const { store, now } = this.deps;
    const nowMs = now().getTime();
    await failExhaustedJobs(store.db, nowMs);
    const claimed = await claimJobs(store.db, store.engine, {
      workerId: this.id,
      limit: this.options.concurrency - this.jobs.size,
      leaseMs: this.options.leaseMs,
      nowMs,
    });
    for (const job of claimed) {
      this.jobs.launch(
        job.id,
        async (signal) => {
          try {
            await this.execute(job, signal);
          } finally {
            // A job that ended may have queued its webhook.
            this.deliveries.wake();
          }
        },
        (err) => this.deps.logger.error({ err, job_id: job.id }, "job bookkeeping failed"),
      );
    }
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
        if (job.claim_id) {
          // A claimant's scan: its public grade only, nothing recorded for the practice (claims/claim-scan.ts).
          const publicResult = await claimScanResultIn(trx, job, output, completedAt);
          await markCompleted(trx, job, {
            result: null,
            publicResult,
            nowMs: completedAt.getTime(),
            durationMs: performance.now() - started,
          });
          await auditJobCompletion(trx, job, completedAt.toISOString());
          return "completed" as const;
        }
        // An external scan's disclosed versions are matched against the KEV catalogue in this transaction, so the
        // grade it completes with already carries the matches (docs/intelligence.md §3).
        const findings =
          output.source === "external"
            ? await withServerSiteFindings(trx, output.findings, completedAt)
            : output.findings;
        const grade = await recordAssessmentIn(trx, {
          ...output,
          findings,
          npi: job.npi,
          at: completedAt,
          reference: `job:${job.id}`,
        });
        const result = await buildJobResult(trx, grade);
        // The report of the scan shows this moment: its grade row and the requirements as of now.
        await recordScanBasisIn(trx, job, completedAt, this.deps.store.engine);
        await markCompleted(trx, job, {
          result,
          nowMs: completedAt.getTime(),
          durationMs: performance.now() - started,
        });
        await auditJobCompletion(trx, job, completedAt.toISOString());
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
    if (this.jobs.size === 0) return;
    try {
      const held = await heartbeat(this.deps.store.db, {
        workerId: this.id,
        jobIds: this.jobs.keys(),
        leaseMs: this.options.leaseMs,
        nowMs: this.deps.now().getTime(),
      });
      // A job whose lease another worker took over is abandoned here; the other worker owns it now.
      for (const id of this.jobs.keys()) if (!held.has(id)) this.jobs.abort(id);
    } catch (err) {
      this.deps.logger.warn({ err, worker: this.id }, "heartbeat failed");
    }
  }
}
