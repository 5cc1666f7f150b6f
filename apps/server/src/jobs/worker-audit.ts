import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import { COMPLETE_SCAN_OPERATION } from "../audit/evidence-operations.js";
import { type LocalAuditEvent, recordAuditEvent } from "../services/audit.js";
import type { Database, JobsTable } from "../store/schema.js";

/** The operation of a failed job's refund in the audit log (the scan was charged by `dispatchScan`). */
export const REFUND_OPERATION = "refundScan";

/**
 * An audit event of the job worker on a job, for the account that dispatched it. Jobs keep neither the dispatching
 * key nor the request id, so the key is null and the request id a fresh one (the resource, `job:<id>`, ties the
 * event to the job, to its assessment's reference and to its charge's and refund's ledger rows).
 */
export function workerJobEvent(job: JobsTable, operation: string, at: string): LocalAuditEvent {
  return {
    at,
    request_id: randomUUID(),
    actor_key_id: null,
    actor_account_id: job.account_id,
    actor_operator: null,
    action: operation,
    transport: "worker",
    resource: `job:${job.id}`,
    outcome: "success",
    status: 200,
    code: null,
  };
}

/** Audits a failed job's refund, if it had credits to refund, inside the failure's transaction. */
export async function auditWorkerRefund(trx: Transaction<Database>, failed: JobsTable): Promise<void> {
  if (failed.credits_charged > 0)
    await recordAuditEvent(trx, workerJobEvent(failed, REFUND_OPERATION, failed.completed_at!));
}

/** Audits a job's completion inside the transaction that stores its assessment and result. */
export function auditJobCompletion(trx: Transaction<Database>, job: JobsTable, at: string): Promise<void> {
  return recordAuditEvent(trx, workerJobEvent(job, COMPLETE_SCAN_OPERATION, at));
}
