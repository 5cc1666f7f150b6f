import { JOBS_PAGE_DEFAULT, type Job, type JobsPage } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import type { Operation } from "../operations/operation.js";
import { callOperation, type RpcCallContext, type RpcHandler, type RpcOutcome } from "../rpc/methods.js";
import { a2aError, answered, readParams } from "./errors.js";
import { jobListStateOf, listTasksResponse, taskOfJob } from "./task-mapping.js";
import { CancelTaskParamsSchema, GetTaskParamsSchema, ListTasksParamsSchema } from "./wire.js";

/*
 * GetTask, ListTasks and CancelTask: each is its catalogue operation (getJob, listJobs, cancelJob) called through
 * the one pipeline with transport `a2a`, its answer mapped to A2A (task-mapping.ts) and its errors to A2A's own.
 */

/**
 * A failed task call in A2A's terms: an unknown id, a malformed one and another account's job are all
 * TaskNotFound (-32001, data.code job_not_found) — whether a task exists is not told to those who may not see it —
 * and a job that can no longer be cancelled is TaskNotCancelable (-32002, data.code conflict). Anything else keeps
 * its HCS error.
 */
function taskCallFailed(outcome: RpcOutcome & { ok: false }, id: string, ctx: RpcCallContext): RpcOutcome {
  if (!("error" in outcome)) return outcome;
  const { code } = outcome.error;
  const shown = id.slice(0, 100);
  if (code === "job_not_found" || code === "forbidden")
    return a2aError("task_not_found", `Task not found: ${shown}`, ctx, {
      cause: new ServiceError("job_not_found", `no task ${shown}`),
      meta: outcome.meta,
    });
  if (code === "conflict")
    return a2aError("task_not_cancelable", `Task not cancelable: ${outcome.error.message}`, ctx, {
      cause: outcome.error,
      meta: outcome.meta,
    });
  return outcome;
}

/** GetTask → getJob: the task with its artifact. HCS keeps no message history, so historyLength changes nothing. */
export function getTaskHandler(getJob: Operation, jobSkill: string): RpcHandler {
  return {
    async call(params, ctx) {
      const read = readParams(GetTaskParamsSchema, params);
      if (!read.ok) return read.outcome;
      const { id } = read.value;
      const outcome = await callOperation(getJob, { job_id: id }, ctx, "a2a");
      if (!outcome.ok) return taskCallFailed(outcome, id, ctx);
      return answered(
        taskOfJob(JSON.parse(outcome.json) as Job, { includeArtifacts: true, skill: jobSkill }),
        outcome.meta,
      );
    },
  };
}

/**
 * ListTasks → listJobs: the caller's tasks newest first (by creation: a stable order to page through, where A2A's
 * last-update order would move tasks between pages as they progress), filtered by contextId, state and
 * statusTimestampAfter; artifacts only with includeArtifacts; pageSize up to 100 (default 50); pageToken is the
 * previous page's nextPageToken.
 */
export function listTasksHandler(listJobs: Operation, jobSkill: string): RpcHandler {
  return {
    async call(params, ctx) {
      const read = readParams(ListTasksParamsSchema, params);
      if (!read.ok) return read.outcome;
      const p = read.value;
      const pageSize = p.pageSize || JOBS_PAGE_DEFAULT;
      const includeArtifacts = p.includeArtifacts ?? false;
      const state = jobListStateOf(p.status);
      // A state no job ever takes (input or auth required, rejected): nothing to read.
      if (state === null) return answered({ tasks: [], nextPageToken: "", pageSize, totalSize: 0 }, null);
      const input = {
        limit: pageSize,
        include_results: includeArtifacts,
        ...(state ? { status: state } : {}),
        ...(p.contextId ? { a2a_context_id: p.contextId } : {}),
        ...(p.pageToken ? { cursor: p.pageToken } : {}),
        ...(p.statusTimestampAfter ? { changed_since: p.statusTimestampAfter } : {}),
      };
      const outcome = await callOperation(listJobs, input, ctx, "a2a");
      if (!outcome.ok) return outcome;
      const page = JSON.parse(outcome.json) as JobsPage;
      return answered(listTasksResponse(page, { pageSize, includeArtifacts, skill: jobSkill }), outcome.meta);
    },
  };
}

/** CancelTask → cancelJob: a task not yet started becomes CANCELED (refunded); a running or ended one is not cancelable. */
export function cancelTaskHandler(cancelJob: Operation, jobSkill: string): RpcHandler {
  return {
    async call(params, ctx) {
      const read = readParams(CancelTaskParamsSchema, params);
      if (!read.ok) return read.outcome;
      const { id } = read.value;
      const outcome = await callOperation(cancelJob, { job_id: id }, ctx, "a2a");
      if (!outcome.ok) return taskCallFailed(outcome, id, ctx);
      return answered(
        taskOfJob(JSON.parse(outcome.json) as Job, { includeArtifacts: true, skill: jobSkill }),
        outcome.meta,
      );
    },
  };
}
