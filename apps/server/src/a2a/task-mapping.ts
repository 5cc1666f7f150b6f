import { JOB_ERROR_CODES, type Job, type JobListState, type JobsPage } from "@hcs/protocol";
import type { OperationDeclaration } from "../operations/operation.js";
import { summarizeOutput } from "../operations/summaries.js";
import type { TaskStateName, WireArtifact, WireListTasksResponse, WireMessage, WirePart, WireTask } from "./wire.js";

/*
 * A scan job seen as an A2A task: pure functions of the job (the API's Job view), so GetTask, ListTasks, CancelTask
 * and SendMessage answer the same task for the same job. Task id = job id.
 */

/** States after which a task never changes (A2A v1.0: completed, failed, canceled, rejected). */
export const TERMINAL_TASK_STATES: ReadonlySet<TaskStateName> = new Set([
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_REJECTED",
]);

/**
 * accepted → SUBMITTED, running → WORKING, completed → COMPLETED, failed → FAILED — except a job cancelled before
 * it ran (failed, error code `cancelled`), which is CANCELED. A job waiting for another attempt is `accepted` again,
 * and SUBMITTED again: it waits for a worker, and its status message says why.
 */
export function taskStateOfJob(job: Pick<Job, "status" | "error">): TaskStateName {
  switch (job.status) {
    case "accepted":
      return "TASK_STATE_SUBMITTED";
    case "running":
      return "TASK_STATE_WORKING";
    case "completed":
      return "TASK_STATE_COMPLETED";
    case "failed":
      return job.error?.code === "cancelled" ? "TASK_STATE_CANCELED" : "TASK_STATE_FAILED";
  }
}

const LIST_STATE_OF: Partial<Record<TaskStateName, JobListState>> = {
  TASK_STATE_SUBMITTED: "accepted",
  TASK_STATE_WORKING: "running",
  TASK_STATE_COMPLETED: "completed",
  TASK_STATE_FAILED: "failed",
  TASK_STATE_CANCELED: "cancelled",
};

/**
 * The job listing filter a ListTasks status filter means: undefined for none (TASK_STATE_UNSPECIFIED), null for a
 * state no job ever takes (input or auth required, rejected: nothing matches).
 */
export function jobListStateOf(state: TaskStateName | undefined): JobListState | null | undefined {
  if (state === undefined || state === "TASK_STATE_UNSPECIFIED") return undefined;
  return LIST_STATE_OF[state] ?? null;
}

/**
 * The task's contextId: the contextId of the message that started the job; a job dispatched over REST, JSON-RPC
 * or MCP belongs to no A2A conversation and is its own context (its id), so every task has one.
 */
export const contextIdOfJob = (job: Pick<Job, "job_id" | "a2a_context_id">) => job.a2a_context_id ?? job.job_id;

/** When the job's status last changed. */
const statusTimeOf = (job: Job) => job.completed_at ?? job.started_at ?? job.created_at;

const text = (t: string): WirePart => ({ text: t });
const json = (data: unknown): WirePart => ({ data, mediaType: "application/json" });

/** What went wrong, for people (the text) and for programs (the data part): the typed code and its meaning. */
function failureParts(job: Job, lead: string): WirePart[] {
  const error = job.error!;
  const meaning = JOB_ERROR_CODES[error.code];
  const detail = error.message && error.message !== meaning ? ` (${error.message})` : "";
  return [
    text(`${lead}: ${error.code} — ${meaning}${detail}.`),
    json({ error: { code: error.code, message: error.message, meaning } }),
  ];
}

/** The parts of the status message for the job's state: what it is doing, or why it failed. */
function statusParts(job: Job, state: TaskStateName): WirePart[] {
  const scan = `Scan of NPI ${job.npi}`;
  switch (state) {
    case "TASK_STATE_SUBMITTED":
      return job.error
        ? failureParts(job, `Attempt ${job.attempts} of ${job.max_attempts} failed and another will follow`)
        : [text(`${scan} accepted; waiting for a worker.`)];
    case "TASK_STATE_WORKING":
      return [text(`${scan} running (attempt ${job.attempts} of ${job.max_attempts}).`)];
    case "TASK_STATE_COMPLETED":
      return [
        text(
          job.result
            ? `${scan} completed: grade ${job.result.grade}, score ${job.result.compliance_score}/100. The result is the artifact "result"${job.result.report?.url ? `; the report (HTML, or PDF with Accept: application/pdf) is at ${job.result.report.url}` : ""}.`
            : job.public_result
              ? `${scan} completed on a claim not proved yet: the claimed domain's grade ${job.public_result.grade}, score ${job.public_result.compliance_score}/100 (the job's public_result). Findings are the owner's: prove control of the domain (docs/onboarding.md).`
              : `${scan} completed. GetTask answers the result as the artifact "result".`,
        ),
      ];
    case "TASK_STATE_CANCELED":
      return [text(`${scan} was cancelled before it ran; its credits were refunded.`)];
    default:
      return failureParts(job, `${scan} failed, and its credits were refunded`);
  }
}

/** The job's result as the task's one artifact. */
const resultArtifact = (result: unknown): WireArtifact => ({
  artifactId: "result",
  name: "Scan result",
  description: "The unified grade record, the practice's open findings and the report summary (JobResult).",
  parts: [json(result)],
});

/**
 * The task of a job: its state, a status message from the agent (for a failure, the typed job error code and its
 * meaning), the result as an artifact once completed (when `includeArtifacts`), and the job's particulars as
 * metadata. HCS keeps no message history: `history` is always empty.
 */
export function taskOfJob(
  job: Job,
  o: {
    readonly includeArtifacts: boolean;
    /** The skill that started the job: the agent method of the catalogue's job-starting operation. */
    readonly skill: string;
  },
): WireTask {
  const state = taskStateOfJob(job);
  const contextId = contextIdOfJob(job);
  const status: WireMessage = {
    // Stable for one state of one attempt: polling the same state answers the same message.
    messageId: `${job.job_id}:${state}:${job.attempts}`,
    contextId,
    taskId: job.job_id,
    role: "ROLE_AGENT",
    parts: statusParts(job, state),
  };
  return {
    id: job.job_id,
    contextId,
    status: { state, message: status, timestamp: statusTimeOf(job) },
    ...(o.includeArtifacts && job.result ? { artifacts: [resultArtifact(job.result)] } : {}),
    metadata: {
      skill: o.skill,
      npi: job.npi,
      scan_type: job.scan_type,
      poll_url: job.poll_url,
      ...(job.result?.report?.url ? { report_url: job.result.report.url } : {}),
      attempts: job.attempts,
      max_attempts: job.max_attempts,
    },
  };
}

/** A page of jobs as ListTasks' answer (`nextPageToken` is "" on the last page, as A2A asks). */
export function listTasksResponse(
  page: JobsPage,
  o: { readonly pageSize: number; readonly includeArtifacts: boolean; readonly skill: string },
): WireListTasksResponse {
  return {
    tasks: page.jobs.map((job) => taskOfJob(job, o)),
    nextPageToken: page.next_cursor ?? "",
    pageSize: o.pageSize,
    totalSize: page.total,
  };
}

/** The message's text part: the same one-paragraph summary MCP shows; the result itself is the data part. */
function resultSummary(operation: OperationDeclaration, result: unknown): string {
  return typeof result === "object" && result !== null && !Array.isArray(result)
    ? summarizeOutput(operation, result as Record<string, unknown>)
    : `${operation.method} answered; the result is the data part (application/json).`;
}

/** A short skill's answer: a message from the agent with a one-line summary and the result as JSON data. */
export function skillResultMessage(o: {
  /** The skill's operation (its method is the skill id). */
  readonly operation: OperationDeclaration;
  readonly result: unknown;
  readonly contextId: string;
  readonly messageId: string;
}): WireMessage {
  return {
    messageId: o.messageId,
    contextId: o.contextId,
    role: "ROLE_AGENT",
    parts: [text(resultSummary(o.operation, o.result)), json(o.result)],
    metadata: { skill: o.operation.method },
  };
}
