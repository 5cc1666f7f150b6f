import { randomUUID } from "node:crypto";
import { CREDIT_PRICES, type Job, JobSchema, type ScanDispatchAcceptance, type ScanType } from "@hcs/protocol";
import type { Transaction } from "kysely";
import { chargeCredits, insufficientCredits } from "../accounting/index.js";
import { ServiceError } from "../errors.js";
import type { Database, JobsTable } from "../store/schema.js";
import { liveClaimOf } from "./claims/claims.js";
import { iso, type ServiceDeps } from "./deps.js";
import { getPractice } from "./practices.js";

/** Attempts a job gets before it fails for good. */
export const JOB_MAX_ATTEMPTS = 3;

/** The estimate given before any job of a scan type has completed (documented in docs/api.md). */
export const DEFAULT_ESTIMATE_MS: Record<ScanType, number> = { full: 5_000 };

/** Completed jobs the duration estimate looks back over. */
const ESTIMATE_WINDOW = 20;

/** The credit operation each scan type is billed as. */
const SCAN_PRICE: Record<ScanType, keyof typeof CREDIT_PRICES> = { full: "full_scan" };

export const pollUrlOf = (jobId: string) => `/v1/a2a/jobs/${jobId}`;
/** Where a completed job's compliance report is read (HTML, or PDF with `Accept: application/pdf`). */
export const reportUrlOf = (jobId: string) => `/v1/a2a/reports/${jobId}`;

/** A stored result as shown: a completed job's links to its report (not stored, so it follows the route). */
export function resultView(row: Omit<JobsTable, "report_basis">) {
  const result = JSON.parse(row.result!);
  if (row.status === "completed" && result.report) result.report.url = reportUrlOf(row.id);
  return result;
}

/** The job as the API shows it (JobSchema). */
export function jobView(row: Omit<JobsTable, "report_basis">): Job {
  return JobSchema.parse({
    job_id: row.id,
    status: row.status,
    scan_type: row.scan_type,
    npi: row.npi,
    poll_url: pollUrlOf(row.id),
    callback_url: row.callback_url,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    created_at: row.created_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
    ...(row.result ? { result: resultView(row) } : {}),
    ...(row.public_result ? { public_result: JSON.parse(row.public_result) } : {}),
    ...(row.claim_id ? { claim_id: row.claim_id } : {}),
    ...(row.error_code ? { error: { code: row.error_code, message: row.error_message ?? "" } } : {}),
    ...(row.a2a_context_id ? { a2a_context_id: row.a2a_context_id } : {}),
  });
}

/** Completed jobs of one practice needed before its own history is trusted over the scan type's. */
const OWN_HISTORY_MIN = 3;

function median(values: number[]): number {
  const d = [...values].sort((a, b) => a - b);
  const mid = Math.floor(d.length / 2);
  return d.length % 2 ? d[mid]! : Math.round((d[mid - 1]! + d[mid]!) / 2);
}

/**
 * Median duration of the recent completed jobs of the scan type — of this practice when it has a few (sites differ
 * more from each other than from themselves), else of every practice — or the documented default before any.
 */
export async function estimateDurationMs(deps: ServiceDeps, scanType: ScanType, npi?: string): Promise<number> {
  const recent = (forNpi?: string) => {
    let q = deps.store.db
      .selectFrom("jobs")
      .select("duration_ms")
      .where("scan_type", "=", scanType)
      .where("status", "=", "completed")
      .where("duration_ms", "is not", null);
    if (forNpi) q = q.where("npi", "=", forNpi);
    return q.orderBy("completed_at", "desc").limit(ESTIMATE_WINDOW).execute();
  };
  if (npi) {
    const own = await recent(npi);
    if (own.length >= OWN_HISTORY_MIN) return median(own.map((r) => r.duration_ms!));
  }
  const all = await recent();
  return all.length === 0 ? DEFAULT_ESTIMATE_MS[scanType] : median(all.map((r) => r.duration_ms!));
}

export interface DispatchInput {
  readonly accountId: string;
  readonly npi: string;
  readonly scanType: ScanType;
  readonly callbackUrl: string | null;
  /** The contextId of the A2A message that asked for the scan, kept on the job (GetTask, ListTasks). */
  readonly a2aContextId?: string | null;
  /** Written in the same transaction as the charge and the job (the audit event of the request). */
  readonly alsoInTransaction?: (trx: Transaction<Database>, status: number) => Promise<void>;
  /** Told what the scan cost and the balance after, once the charge committed (the answer states both). */
  readonly charged?: (credits: number, balance: number) => void;
}

/**
 * Accepts a scan: the practice must belong to the caller's account; its price is charged and the job row written
 * in one group commit, so a job exists exactly when it was paid for (and a failed job is refunded later).
 */
export async function dispatchScan(deps: ServiceDeps, input: DispatchInput): Promise<ScanDispatchAcceptance> {
  // The owner's scan examines the practice's proved domain and records its assessment; a claimant's examines the
  // claimed domain's public surface and answers only its public grade (docs/onboarding.md#before-proof).
  const practice = await getPractice(deps, input.npi);
  const claim =
    practice.account_id === input.accountId ? null : await liveClaimOf(deps.store.db, input.npi, input.accountId);
  if (practice.account_id !== input.accountId && !claim)
    throw new ServiceError("forbidden", "this practice belongs to another account");
  const operation = SCAN_PRICE[input.scanType];
  const price = CREDIT_PRICES[operation];
  const jobId = randomUUID();
  const [estimate, charge] = await Promise.all([
    estimateDurationMs(deps, input.scanType, input.npi),
    deps.store.writes.run(async (trx) => {
      const at = iso(deps.now());
      const c = await chargeCredits(deps.store.hot, trx, {
        accountId: input.accountId,
        amount: price,
        operation,
        reference: `job:${jobId}`,
        at,
      });
      if (c.charged) {
        await trx
          .insertInto("jobs")
          .values({
            id: jobId,
            account_id: input.accountId,
            npi: input.npi,
            scan_type: input.scanType,
            status: "accepted",
            callback_url: input.callbackUrl,
            attempts: 0,
            max_attempts: JOB_MAX_ATTEMPTS,
            run_after: at,
            lease_owner: null,
            lease_expires_at: null,
            created_at: at,
            started_at: null,
            completed_at: null,
            duration_ms: null,
            credits_charged: price,
            result: null,
            error_code: null,
            error_message: null,
            a2a_context_id: input.a2aContextId ?? null,
            claim_id: claim?.id ?? null,
          })
          .execute();
      }
      await input.alsoInTransaction?.(trx, c.charged ? 202 : 402);
      return c;
    }),
  ]);
  if (!charge.charged) throw insufficientCredits(price, charge.balance);
  input.charged?.(price, charge.balance);
  return { status: "accepted", job_id: jobId, poll_url: pollUrlOf(jobId), estimated_duration_ms: estimate };
}

/** The job's row, if it belongs to the account (404 job_not_found otherwise: nobody learns another account's job exists). */
export async function jobRowForAccount(deps: ServiceDeps, jobId: string, accountId: string): Promise<JobsTable> {
  const row = await deps.store.db.selectFrom("jobs").selectAll().where("id", "=", jobId).executeTakeFirst();
  if (!row) throw new ServiceError("job_not_found", `no job ${jobId}`);
  if (row.account_id !== accountId) throw new ServiceError("job_not_found", "no such job of your account");
  return row;
}

/** The job, if it belongs to the account (404 job_not_found otherwise). */
export async function jobForAccount(deps: ServiceDeps, jobId: string, accountId: string): Promise<Job> {
  return jobView(await jobRowForAccount(deps, jobId, accountId));
}
