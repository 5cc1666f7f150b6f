import { JOB_STATUSES, JOBS_PAGE_MAX, JobSchema, JobsPageSchema, JobsQuerySchema } from "@hcs/protocol";
import { declareOperation } from "../../operations/operation.js";
import { JOBS_PAGE_RESULT_BYTES } from "../../services/jobs-page-budget.js";
import { JobInputSchema } from "./scans.declaration.js";

export const listJobsDeclaration = declareOperation({
  id: "listJobs",
  group: "b",
  access: { rule: "own_account" },
  example: { status: "completed", limit: 20 },
  summary: "List your scan jobs",
  description:
    "The jobs your account dispatched, newest first (A2A ListTasks reads the same list). Filters: `status` — " +
    `${JOB_STATUSES.join(", ")}, or cancelled (a job cancelled before it ran: status failed, error.code cancelled; ` +
    "`failed` lists the other failures) —, `a2a_context_id`, `changed_since` (the job was created, started or ended " +
    `at or after it); \`include_results\` adds each completed job's result; \`limit\` up to ${JOBS_PAGE_MAX} and ` +
    "`cursor` (the previous page's next_cursor) for the next page; `total` counts every page. With results a page " +
    `also stops before the job that would take it past ${JOBS_PAGE_RESULT_BYTES / 1024 / 1024} MiB of results (at ` +
    "least one job; next_cursor continues). " +
    "Not metered.",
  input: JobsQuerySchema,
  output: JobsPageSchema,
  errors: [],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/jobs" },
});

export const cancelJobDeclaration = declareOperation({
  id: "cancelJob",
  group: "b",
  access: { rule: "owner", of: "job", field: "job_id" },
  example: { job_id: "7d1b1f0e-5b7a-4c1e-9f3a-2b9c8e4d6a10" },
  summary: "Cancel a scan job that has not started",
  description:
    "No body. A job still accepted (no worker has started it) fails with error.code cancelled: its credits are " +
    "refunded and its callback_url gets the job.failed webhook. A job that is running or has ended is 409 conflict " +
    "(details.status says where it is); cancelling a cancelled job answers it again. Only the dispatching account " +
    "may cancel a job. Not metered.",
  input: JobInputSchema,
  output: JobSchema,
  errors: ["job_not_found", "conflict"],
  // A malformed id names nothing that exists: answered as an unknown one.
  inputErrors: { job_id: { code: "job_not_found", message: "no such job" } },
  readOnly: false,
  openWorld: false,
  rest: { method: "post", path: "/v1/a2a/jobs/:job_id/cancel" },
});
