import type { ScanDispatchAcceptance } from "@hcs/protocol";
import {
  CREDIT_PRICES,
  JobSchema,
  SCAN_TYPES,
  ScanDispatchAcceptanceSchema,
  ScanDispatchRequestSchema,
} from "@hcs/protocol";
import { z } from "zod";
import { declareOperation } from "../../operations/operation.js";

export const JobInputSchema = z.strictObject({ job_id: z.string().regex(/^[0-9a-f-]{36}$/, "a job id") });

export const scanDeclaration = declareOperation({
  id: "dispatchScan",
  method: "hipaa.scan",
  group: "b",
  // A claimant (a claim not proved yet) may scan the claimed domain's public surface and read its public grade.
  access: { rule: "owner", of: "practice", field: "npi", claimants: true },
  example: { npi: "1234567893", scan_type: "full" },
  summary: "Dispatch an asynchronous compliance scan of a practice you own",
  description:
    "scan_type `full` (default): external scan of the practice's domain and website (email authentication, HTTPS and " +
    "TLS, security headers, cookies, exposed services, trackers, privacy notice), then the unified grade, findings and " +
    `report data. Costs ${CREDIT_PRICES.full_scan} credits, charged when the job is accepted and refunded if it fails. ` +
    "Answers at once with a job to poll; with callback_url (https, public address) the job JSON is POSTed there when " +
    "the job ends, signed with X-HCS-Signature (see docs/webhooks.md). A claimant not yet proved gets " +
    "`public_result` only (docs/onboarding.md).",
  input: ScanDispatchRequestSchema,
  output: ScanDispatchAcceptanceSchema,
  price: { kind: "charged_by_handler", operation: "full_scan" },
  errors: [
    "invalid_npi",
    "invalid_scan_type",
    "invalid_callback_url",
    "npi_not_found",
    "forbidden",
    "insufficient_credits",
  ],
  inputErrors: {
    scan_type: {
      code: "invalid_scan_type",
      message: `scan_type must be one of: ${SCAN_TYPES.join(", ")}`,
      details: { allowed: SCAN_TYPES },
    },
    callback_url: { code: "invalid_callback_url", message: "callback_url must be an https URL" },
  },
  readOnly: false,
  // The scan reaches the practice's own public hosts.
  openWorld: true,
  summarize: scanSummary,
  startsJob: true,
  rest: {
    method: "post",
    path: "/v1/a2a/scans/dispatch",
    status: 202,
    answer: (acceptance: z.output<typeof ScanDispatchAcceptanceSchema>) => ({
      headers: { Location: acceptance.poll_url },
    }),
  },
});

export const getJobDeclaration = declareOperation({
  id: "getJob",
  group: "b",
  access: { rule: "owner", of: "job", field: "job_id" },
  example: { job_id: "7d1b1f0e-5b7a-4c1e-9f3a-2b9c8e4d6a10" },
  summary: "Poll a scan job",
  description:
    "Status (accepted, running, completed, failed), timestamps, attempts; on completion `result` holds the grade record, " +
    "findings and report data, on failure `error` a typed code. Only the dispatching account may read a job. Not metered.",
  input: JobInputSchema,
  output: JobSchema,
  errors: ["job_not_found"],
  // A malformed id names nothing that exists: answered as an unknown one.
  inputErrors: { job_id: { code: "job_not_found", message: "no such job" } },
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/jobs/:job_id" },
});

export function scanSummary(s: ScanDispatchAcceptance): string {
  return `Full scan accepted as job ${s.job_id}; it should take about ${Math.max(1, Math.round(s.estimated_duration_ms / 1000))} s. Its result is at ${s.poll_url}, and a grade lookup afterwards shows the new score.`;
}
