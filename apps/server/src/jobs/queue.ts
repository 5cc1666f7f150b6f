import { randomUUID } from "node:crypto";
import type { JobErrorCode, JobStatus } from "@hcs/protocol";
import { type Kysely, sql, type Transaction } from "kysely";
import { grantCredits } from "../accounting/index.js";
import type { AuditInTransaction } from "../services/audit.js";
import { iso } from "../services/deps.js";
import { jobView } from "../services/jobs.js";
import { engineCapabilities } from "../store/engine-capabilities.js";
import type { Engine } from "../store/migrations/engine.js";
import type { Database, JobsTable } from "../store/schema.js";
import { exponentialBackoffMs } from "../util/backoff.js";
import { enqueueWebhook } from "../webhooks/outbox.js";
import { auditWorkerRefund } from "./worker-audit.js";

/**
 * Claims up to `limit` jobs for `workerId`: jobs accepted and due, and running jobs whose lease expired (their
 * worker died). PostgreSQL skips rows other workers are claiming (FOR UPDATE SKIP LOCKED); SQLite has one writer.
 */
export async function claimJobs(
  db: Kysely<Database>,
  engine: Engine,
  o: { workerId: string; limit: number; leaseMs: number; nowMs: number },
): Promise<JobsTable[]> {
  if (o.limit <= 0) return [];
  const now = iso(o.nowMs);
  return db.transaction().execute(async (trx) => {
    let candidates = trx
      .selectFrom("jobs")
      .select("id")
      .where((eb) =>
        eb.or([
          eb.and([eb("status", "=", "accepted"), eb("run_after", "<=", now)]),
          eb.and([eb("status", "=", "running"), eb("lease_expires_at", "<", now)]),
        ]),
      )
      .whereRef("attempts", "<", "max_attempts")
      .orderBy("created_at")
      .limit(o.limit);
    // Several workers claim at once: each takes rows the others have not locked.
    candidates = engineCapabilities(engine).locks.claim(candidates);
    const ids = (await candidates.execute()).map((r) => r.id);
    if (ids.length === 0) return [];
    return trx
      .updateTable("jobs")
      .set({
        status: "running",
        lease_owner: o.workerId,
        lease_expires_at: iso(o.nowMs + o.leaseMs),
        attempts: sql`attempts + 1`,
        started_at: sql`coalesce(started_at, ${now})`,
      })
      .where("id", "in", ids)
      .returningAll()
      .execute();
  });
}

/** Extends the leases of the worker's running jobs; returns the ids it still holds. */
export async function heartbeat(
  db: Kysely<Database>,
  o: { workerId: string; jobIds: string[]; leaseMs: number; nowMs: number },
): Promise<Set<string>> {
  if (o.jobIds.length === 0) return new Set();
  const rows = await db
    .updateTable("jobs")
    .set({ lease_expires_at: iso(o.nowMs + o.leaseMs) })
    .where("id", "in", o.jobIds)
    .where("lease_owner", "=", o.workerId)
    .where("status", "=", "running")
    .returning("id")
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Inside `trx`, confirms the worker still holds the job; returns false when the lease was lost (another worker
 * took over), in which case the caller must write nothing. This is what makes completion happen exactly once.
 */
export async function stillHolds(trx: Transaction<Database>, jobId: string, workerId: string): Promise<boolean> {
  const row = await trx
    .updateTable("jobs")
    .set({ lease_owner: workerId })
    .where("id", "=", jobId)
    .where("lease_owner", "=", workerId)
    .where("status", "=", "running")
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks a held job completed with its result and queues its webhook, inside `trx`. */
export async function markCompleted(
  trx: Transaction<Database>,
  job: JobsTable,
  o: { result: unknown; nowMs: number; durationMs: number; publicResult?: unknown },
): Promise<JobsTable> {
  const row = await trx
    .updateTable("jobs")
    .set({
      status: "completed",
      // A claimant's scan keeps only its public answer (publicResult); an owner's keeps its full result.
      result: o.publicResult === undefined ? JSON.stringify(o.result) : null,
      public_result: o.publicResult === undefined || o.publicResult === null ? null : JSON.stringify(o.publicResult),
      completed_at: iso(o.nowMs),
      duration_ms: Math.round(o.durationMs),
      lease_owner: null,
      lease_expires_at: null,
      error_code: null,
      error_message: null,
    })
    .where("id", "=", job.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (row.callback_url) await enqueueWebhook(trx, row, "job.completed", jobView(row), o.nowMs);
  return row;
}

/** A failed job's retry delay: exponential from 2 s, capped at 5 minutes. */
export function jobRetryDelayMs(attempt: number, baseMs = 2_000): number {
  return exponentialBackoffMs(attempt, baseMs, 300_000);
}

/**
 * A held job's attempt failed: it goes back to `accepted` after a backoff, or — out of attempts — becomes
 * `failed` with the error, its credits are refunded with a ledger row, and its webhook is queued.
 */
export async function markAttemptFailed(
  db: Kysely<Database>,
  job: JobsTable,
  o: { workerId: string; code: JobErrorCode; message: string; nowMs: number; retryable: boolean },
): Promise<"retrying" | "failed" | "lost"> {
  return db.transaction().execute(async (trx) => {
    if (!(await stillHolds(trx, job.id, o.workerId))) return "lost";
    if (o.retryable && job.attempts < job.max_attempts) {
      await trx
        .updateTable("jobs")
        .set({
          status: "accepted",
          run_after: iso(o.nowMs + jobRetryDelayMs(job.attempts)),
          lease_owner: null,
          lease_expires_at: null,
          error_code: o.code,
          error_message: o.message,
        })
        .where("id", "=", job.id)
        .execute();
      return "retrying";
    }
    await failJob(trx, job.id, { code: o.code, message: o.message, nowMs: o.nowMs, audit: auditWorkerRefund });
    return "failed";
  });
}

/** Why and how a job fails for good. */
export interface JobFailure {
  readonly code: JobErrorCode;
  readonly message: string;
  readonly nowMs: number;
  /** Fail it only from these states (default: not ended yet). */
  readonly from?: readonly JobStatus[];
  /**
   * Writes the failure's audit event in its transaction, so the refund is audited exactly when it happens: the
   * worker's refund event ({@link auditWorkerRefund}), or the event of the call that cancelled the job.
   */
  readonly audit: AuditInTransaction<JobsTable>;
}

/**
 * Fails a job for good — status, refund, webhook, audit event — if it is still in one of `from`. One conditional
 * update, so a worker claiming the job and a client cancelling it cannot both win. Returns the failed row, or
 * undefined when the job was in no such state (then nothing is written).
 */
export async function failJob(
  trx: Transaction<Database>,
  jobId: string,
  { code, message, nowMs, from = ["accepted", "running"], audit }: JobFailure,
): Promise<JobsTable | undefined> {
  const row = await trx
    .updateTable("jobs")
    .set({
      status: "failed",
      completed_at: iso(nowMs),
      lease_owner: null,
      lease_expires_at: null,
      error_code: code,
      error_message: message,
    })
    .where("id", "=", jobId)
    .where("status", "in", [...from])
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.credits_charged > 0) {
    await grantCredits(trx, {
      accountId: row.account_id,
      amount: row.credits_charged,
      operation: "refund",
      reference: `job:${row.id}`,
      at: iso(nowMs),
    });
  }
  if (row.callback_url) await enqueueWebhook(trx, row, "job.failed", jobView(row), nowMs);
  await audit(trx, row);
  return row;
}

/** Jobs whose worker died on their last attempt: failed (with refund), since nobody may claim them again. */
export async function failExhaustedJobs(db: Kysely<Database>, nowMs: number): Promise<number> {
  const now = iso(nowMs);
  const rows = await db
    .selectFrom("jobs")
    .select("id")
    .where("status", "=", "running")
    .where("lease_expires_at", "<", now)
    .whereRef("attempts", ">=", "max_attempts")
    .limit(100)
    .execute();
  for (const r of rows) {
    await db.transaction().execute((trx) =>
      failJob(trx, r.id, {
        code: "worker_lost",
        message: "the worker running the last attempt stopped",
        nowMs,
        audit: auditWorkerRefund,
      }),
    );
  }
  return rows.length;
}

export const newWorkerId = () => `wrk_${randomUUID().slice(0, 8)}`;
