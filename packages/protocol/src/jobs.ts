import { z } from "zod";
import { SeveritySchema } from "./categories.js";
import { FindingSchema } from "./finding.js";
import { GradeRecordSchema, OwnerGradeRecordSchema } from "./grade-record.js";
import { NpiSchema } from "./npi.js";

/** Scan types a dispatch accepts (docs/api.md#scans-and-jobs). */
export const SCAN_TYPES = ["full"] as const;
export const ScanTypeSchema = z.enum(SCAN_TYPES);
export type ScanType = z.infer<typeof ScanTypeSchema>;

export const CallbackUrlSchema = z
  .url({ protocol: /^https$/, error: "callback_url must be an https URL" })
  .max(2048)
  .meta({ description: "https URL that receives the job JSON when the job ends" });

export const ScanDispatchRequestSchema = z
  .strictObject({
    npi: NpiSchema,
    scan_type: ScanTypeSchema.default("full"),
    callback_url: CallbackUrlSchema.optional(),
  })
  .meta({ id: "ScanDispatchRequest" });
export type ScanDispatchRequest = z.input<typeof ScanDispatchRequestSchema>;

export const ScanDispatchAcceptanceSchema = z
  .object({
    status: z.literal("accepted"),
    job_id: z.string(),
    poll_url: z.string().regex(/^\/v1\/a2a\/jobs\/[^/]+$/),
    estimated_duration_ms: z.int().min(0),
  })
  .meta({ id: "ScanDispatchAcceptance" });
export type ScanDispatchAcceptance = z.infer<typeof ScanDispatchAcceptanceSchema>;

export const JOB_STATUSES = ["accepted", "running", "completed", "failed"] as const;

/**
 * Why a job failed, as `error.code` of a failed job (and the reason of a failed A2A task): a typed catalogue, each
 * with what it means for the caller. Only `scan_cancelled` is retried by the service itself; after any other the
 * credits are refunded and the caller may dispatch again.
 */
export const JOB_ERROR_CODES = {
  target_unreachable: "no check could reach the practice's domain or website",
  target_refused: "the practice's addresses are private, and private targets are not allowed",
  invalid_target: "the practice's domain or website is not something that can be scanned",
  npi_not_found: "the practice no longer exists",
  unknown_scan_type: "this server has no executor for the job's scan type",
  scan_cancelled: "the worker stopped during the scan (another attempt follows)",
  worker_lost: "the worker running the last attempt stopped",
  cancelled: "the client cancelled the job before it ran",
  internal: "the scan failed unexpectedly",
} as const;
export type JobErrorCode = keyof typeof JOB_ERROR_CODES;
export const JOB_ERROR_CODE_LIST = Object.keys(JOB_ERROR_CODES) as JobErrorCode[];
export const JobErrorCodeSchema = z.enum(JOB_ERROR_CODE_LIST as [JobErrorCode, ...JobErrorCode[]]);
export const JobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatusSchema>;

const count = z.int().min(0);
const severityCounts = z.object({ critical: count, high: count, medium: count, low: count, info: count });

/** Summary a report is printed from: counts and the findings to fix first. */
export const ReportSummarySchema = z
  .object({
    findings_by_severity: severityCounts,
    top_findings: z.array(z.object({ id: z.string(), title: z.string(), severity: SeveritySchema })),
    /**
     * The job's compliance report (HTML, or PDF with `Accept: application/pdf`): `/v1/a2a/reports/<job id>`. Added
     * when the job is shown (REST, JSON-RPC, A2A, webhooks), not stored with the result.
     */
    url: z
      .string()
      .regex(/^\/v1\/a2a\/reports\/[^/]+$/)
      .optional(),
  })
  .meta({ id: "ReportSummary" });

/** What a completed full scan job carries: the grade record plus findings and report data. */
export const JobResultSchema = OwnerGradeRecordSchema.extend({
  findings: z.array(FindingSchema),
  report: ReportSummarySchema,
}).meta({ id: "JobResult" });
export type JobResult = z.infer<typeof JobResultSchema>;

export const JobSchema = z
  .object({
    job_id: z.string(),
    status: JobStatusSchema,
    scan_type: ScanTypeSchema,
    npi: NpiSchema,
    poll_url: z.string(),
    callback_url: z.string().nullable(),
    attempts: z.int().min(0),
    max_attempts: z.int().min(1),
    created_at: z.iso.datetime(),
    started_at: z.iso.datetime().nullable(),
    completed_at: z.iso.datetime().nullable(),
    result: JobResultSchema.optional(),
    /**
     * A scan dispatched on a claim not yet proved (docs/onboarding.md): the public grade of the claimed domain —
     * score, grade, categories, coverage — in place of `result`. Its findings are kept for no one.
     */
    public_result: GradeRecordSchema.optional(),
    claim_id: z
      .string()
      .meta({ description: "Present on a scan a claimant dispatched before proving control: the claim" })
      .optional(),
    error: z.object({ code: JobErrorCodeSchema, message: z.string() }).optional(),
    a2a_context_id: z
      .string()
      .meta({ description: "Present on a job an A2A SendMessage started: the message's contextId" })
      .optional(),
  })
  .meta({ id: "Job", description: "An asynchronous scan job" });
export type Job = z.infer<typeof JobSchema>;

export const JOBS_PAGE_MAX = 100;
export const JOBS_PAGE_DEFAULT = 50;

/**
 * What a job listing filters on: the job statuses, with `cancelled` — a job failed with the error code `cancelled`
 * before it ran — kept apart from `failed` (the failures of jobs that ran), as A2A keeps CANCELED apart from FAILED.
 */
export const JOB_LIST_STATES = ["accepted", "running", "completed", "failed", "cancelled"] as const;
export type JobListState = (typeof JOB_LIST_STATES)[number];

export const JobsQuerySchema = z
  .strictObject({
    status: z.enum(JOB_LIST_STATES).optional(),
    a2a_context_id: z.string().min(1).max(256).optional(),
    /** Jobs whose status last changed (created, started or ended) at or after this time. */
    changed_since: z.iso.datetime({ offset: true }).optional(),
    /** Include each completed job's `result` (large: the findings); off by default. */
    include_results: z.boolean().default(false),
    limit: z.int().min(1).max(JOBS_PAGE_MAX).default(JOBS_PAGE_DEFAULT),
    /** Opaque: the `next_cursor` of the previous page. */
    cursor: z.string().min(1).max(1024).optional(),
  })
  .meta({ id: "JobsQuery" });
export type JobsQuery = z.input<typeof JobsQuerySchema>;

export const JobsPageSchema = z
  .object({
    jobs: z.array(JobSchema),
    /** Pass as `cursor` for the next page; null on the last one. */
    next_cursor: z.string().nullable(),
    /** Jobs matching the filters, over every page. */
    total: z.int().min(0),
  })
  .meta({ id: "JobsPage", description: "One page of the account's scan jobs, newest first" });
export type JobsPage = z.infer<typeof JobsPageSchema>;
