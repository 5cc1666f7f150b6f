import { JOB_ERROR_CODES, type Job } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import { failJob } from "../jobs/queue.js";
import type { JobsTable } from "../store/schema.js";
import type { AuditInTransaction } from "./audit.js";
import type { ServiceDeps } from "./deps.js";
import { jobRowForAccount, jobView } from "./jobs.js";

const isCancelled = (row: JobsTable) => row.status === "failed" && row.error_code === "cancelled";

/**
 * Cancels a job of the account that no worker has started: it fails with the job error code `cancelled` through
 * the queue's one fail path (credits refunded with a ledger row, its webhook queued). The update is conditional on
 * the job still being `accepted`, so a worker claiming it at the same moment and this cancellation cannot both
 * win. Cancelling a cancelled job answers it again (a retried request has the same effect); a job that is running
 * or has ended is a 409 conflict. `auditCancel` writes the cancelling call's event in the transaction that cancels
 * and refunds (only when it does), so the refund is never unaudited.
 */
export async function cancelJob(
  deps: ServiceDeps,
  jobId: string,
  accountId: string,
  auditCancel: AuditInTransaction<JobsTable>,
): Promise<Job> {
  const row = await jobRowForAccount(deps, jobId, accountId);
  if (row.status === "accepted") {
    const cancelled = await deps.store.db.transaction().execute((trx) =>
      failJob(trx, jobId, {
        code: "cancelled",
        message: JOB_ERROR_CODES.cancelled,
        nowMs: deps.now().getTime(),
        from: ["accepted"],
        audit: auditCancel,
      }),
    );
    if (cancelled) return jobView(cancelled);
  }
  // Not accepted, or no longer (a worker claimed it, or a concurrent request cancelled it): answer where it is now.
  const now = row.status === "accepted" ? await jobRowForAccount(deps, jobId, accountId) : row;
  if (isCancelled(now)) return jobView(now);
  throw new ServiceError("conflict", `the job is ${now.status}: only a job that has not started can be cancelled`, {
    job_id: jobId,
    status: now.status,
  });
}
