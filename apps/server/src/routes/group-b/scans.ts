import {
  CREDIT_PRICES,
  JobSchema,
  SCAN_TYPES,
  ScanDispatchAcceptanceSchema,
  ScanDispatchRequestSchema,
} from "@hcs/protocol";
import { z } from "zod";
import { ServiceError } from "../../errors.js";
import { readJson } from "../../http/body.js";
import { dispatchScan, jobForAccount } from "../../services/jobs.js";
import { zodIssues } from "../../util/parse-json.js";
import { vetCallbackUrl } from "../../webhooks/target-policy.js";
import { invalidNpi, pathParam } from "../params.js";
import { defineRoute } from "../route.js";

// Read loosely first so that each problem gets its own documented code (invalid_npi, invalid_scan_type,
// invalid_callback_url) before the strict schema reports anything else as invalid_body.
const LooseDispatch = z.record(z.string(), z.unknown());

export const dispatchScanRoute = defineRoute({
  method: "post",
  path: "/v1/a2a/scans/dispatch",
  group: "b",
  operationId: "dispatchScan",
  summary: "Dispatch an asynchronous compliance scan of a practice you own",
  description:
    "scan_type `full` (default): external scan of the practice's domain and website, unified grade, findings and report data. " +
    `Costs ${CREDIT_PRICES.full_scan} credits, charged when the job is accepted and refunded if it fails. With callback_url (https, public address), ` +
    "the job JSON is POSTed there when the job ends, signed with X-HCS-Signature (see docs/webhooks.md).",
  body: ScanDispatchRequestSchema,
  responses: { 202: { description: "Accepted; poll poll_url", schema: ScanDispatchAcceptanceSchema } },
  errors: [
    "invalid_json",
    "invalid_body",
    "invalid_npi",
    "invalid_scan_type",
    "invalid_callback_url",
    "unsupported_media_type",
    "npi_not_found",
    "forbidden",
    "insufficient_credits",
    "missing_credentials",
    "invalid_credentials",
    "key_revoked",
    "rate_limited",
  ],
  price: "full_scan",
  async handler(ctx, deps) {
    const caller = ctx.state.caller!;
    const loose = await readJson(ctx, LooseDispatch);
    if (loose.scan_type !== undefined && !SCAN_TYPES.includes(loose.scan_type as never)) {
      throw new ServiceError("invalid_scan_type", `scan_type must be one of: ${SCAN_TYPES.join(", ")}`, {
        allowed: SCAN_TYPES,
      });
    }
    if (loose.npi === undefined)
      throw new ServiceError("invalid_body", "npi is required", { issues: [{ path: "npi", message: "required" }] });
    const parsed = ScanDispatchRequestSchema.safeParse(loose);
    if (!parsed.success) {
      const first = parsed.error.issues[0]?.path[0];
      if (first === "npi") throw invalidNpi();
      if (first === "callback_url")
        throw new ServiceError("invalid_callback_url", "callback_url must be an https URL", {
          issues: zodIssues(parsed.error),
        });
      throw new ServiceError("invalid_body", "the request body does not match the schema", {
        issues: zodIssues(parsed.error),
      });
    }
    const body = parsed.data;
    ctx.state.auditResource = `practice:${body.npi}`;
    if (body.callback_url)
      await vetCallbackUrl(body.callback_url, { allowPrivateTargets: deps.config.allowPrivateTargets });
    const acceptance = await dispatchScan(deps, {
      accountId: caller.accountId,
      npi: body.npi,
      scanType: body.scan_type,
      callbackUrl: body.callback_url ?? null,
      ...(ctx.state.auditInline ? { alsoInTransaction: ctx.state.auditInline } : {}),
    });
    deps.wakeWorker?.();
    ctx.status = 202;
    ctx.set("Location", acceptance.poll_url);
    ctx.body = acceptance;
  },
});

const JobParams = z.object({ job_id: z.string().regex(/^[0-9a-f-]{36}$/, "a job id") });

export const getJobRoute = defineRoute({
  method: "get",
  path: "/v1/a2a/jobs/:job_id",
  group: "b",
  operationId: "getJob",
  summary: "Poll a scan job",
  description:
    "Status (accepted, running, completed, failed), timestamps, attempts; on completion `result` holds the grade record, findings and report data. Only the dispatching account may read a job. Not metered.",
  params: JobParams,
  responses: { 200: { description: "The job", schema: JobSchema } },
  errors: ["job_not_found", "forbidden", "missing_credentials", "invalid_credentials", "key_revoked", "rate_limited"],
  async handler(ctx, deps) {
    const jobId = pathParam(ctx, "job_id", JobParams.shape.job_id, "job_not_found");
    ctx.state.auditResource = `job:${jobId}`;
    ctx.body = await jobForAccount(deps, jobId, ctx.state.caller!.accountId);
  },
});
