import { bindOperation } from "../../operations/operation.js";
import { dispatchScan, jobForAccount } from "../../services/jobs.js";
import { vetCallbackUrl } from "../../webhooks/target-policy.js";
import { getJobDeclaration, scanDeclaration } from "./scans.declaration.js";

export const scanOperation = bindOperation(scanDeclaration, async (input, call) => {
  call.setResource(`practice:${input.npi}`);
  if (input.callback_url)
    await vetCallbackUrl(input.callback_url, { allowPrivateTargets: call.deps.config.allowPrivateTargets });
  const acceptance = await dispatchScan(call.deps, {
    accountId: call.caller!.accountId,
    npi: input.npi,
    scanType: input.scan_type,
    callbackUrl: input.callback_url ?? null,
    a2aContextId: call.a2aContextId,
    // The audit event commits with the charge and the job (202), or with the refusal (402).
    alsoInTransaction: (trx, status) => call.auditIn(trx, status),
    charged: (credits, balance) => call.charged(credits, balance),
  });
  call.deps.wakeWorker?.();
  return acceptance;
});

export const getJobOperation = bindOperation(getJobDeclaration, async ({ job_id }, call) => {
  call.setResource(`job:${job_id}`);
  return jobForAccount(call.deps, job_id, call.caller!.accountId);
});
