import { bindOperation } from "../../operations/operation.js";
import { cancelJob } from "../../services/job-cancel.js";
import { jobsPage } from "../../services/jobs-page.js";
import { cancelJobDeclaration, listJobsDeclaration } from "./jobs.declaration.js";

export const listJobsOperation = bindOperation(listJobsDeclaration, async (input, call) => {
  return jobsPage(call.deps, {
    accountId: call.caller!.accountId,
    includeResults: input.include_results,
    limit: input.limit,
    ...(input.status ? { status: input.status } : {}),
    ...(input.a2a_context_id ? { a2aContextId: input.a2a_context_id } : {}),
    ...(input.changed_since ? { changedSince: input.changed_since } : {}),
    ...(input.cursor ? { cursor: input.cursor } : {}),
  });
});

export const cancelJobOperation = bindOperation(cancelJobDeclaration, async ({ job_id }, call) => {
  call.setResource(`job:${job_id}`);
  // The call's event (200 on job:<id>) commits with the cancellation and its refund; no separate refund event.
  return cancelJob(call.deps, job_id, call.caller!.accountId, (trx) => call.auditIn(trx, 200));
});
