import { CREDIT_PRICES } from "@hcs/protocol";
import { z } from "zod";
import { defineOperation, RawBody } from "../../operations/operation.js";
import { REPORT_FORMATS } from "../../reports/formats.js";
import { JobInputSchema } from "./scans.js";

/** The media type of each report format, in the order `Accept` negotiation prefers them (HTML when either will do). */
const MEDIA_TYPES = { html: "text/html", pdf: "application/pdf" } as const;

export const reportOperation = defineOperation({
  id: "getScanReport",
  group: "b",
  access: { rule: "owner", of: "job", field: "job_id" },
  example: { job_id: "7d1b1f0e-5b7a-4c1e-9f3a-2b9c8e4d6a10", format: "html" },
  summary: "The compliance report of a completed full scan, as HTML or PDF",
  description:
    "The report of a completed scan job your account dispatched: executive summary (grade, score, trend), results " +
    "by category, every finding with its evidence, HIPAA controls and fix, the 13 requirements' states, scan " +
    "coverage and dates, and the audit events (ids, leaf indexes) that prove the scans, with how to fetch their " +
    "proofs. HTML by default (`Accept: text/html`: one self-contained page, no scripts, served with a CSP that " +
    "allows only its own stylesheet); PDF with `Accept: application/pdf` or `format=pdf`. Another account's job is " +
    "404 job_not_found, as an unknown one; a job that has not completed is 409 job_not_completed (details.status); " +
    "an Accept header that allows neither format is 406 not_acceptable. Free: the report comes with the " +
    `${CREDIT_PRICES.full_scan}-credit full scan.`,
  input: JobInputSchema.extend({ format: z.enum(REPORT_FORMATS).default("html") }),
  output: z.string().meta({ description: "The report: an HTML page, or a PDF document (binary)" }),
  errors: ["job_not_found", "job_not_completed", "not_acceptable", "forbidden"],
  inputErrors: {
    // A malformed id names nothing that exists: answered as an unknown one.
    job_id: { code: "job_not_found", message: "no such job" },
    format: {
      code: "not_acceptable",
      message: "the report is served as text/html or application/pdf (Accept, or format=html|pdf)",
      details: { available: Object.values(MEDIA_TYPES) },
    },
  },
  readOnly: true,
  openWorld: false,
  implemented: true,
  rest: {
    method: "get",
    path: "/v1/a2a/reports/:job_id",
    produces: Object.values(MEDIA_TYPES),
    headers: {
      // A report names a practice's weaknesses: never kept by shared caches, nor by the browser after use.
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      Vary: "Accept",
    },
    fromHeaders: (ctx) => {
      const wanted = ctx.accepts(...Object.values(MEDIA_TYPES));
      return { format: wanted === MEDIA_TYPES.pdf ? "pdf" : wanted === MEDIA_TYPES.html ? "html" : "unacceptable" };
    },
  },
  async run({ job_id, format }, call) {
    call.setResource(`job:${job_id}`);
    // The report's builder and renderers load with the first report: processes that never serve one (the operator
    // CLI, workers) do not carry them (about 0.4 s of module loading measured at start-up).
    const { jobReport } = await import("../../reports/report-service.js");
    const report = await jobReport(call.deps, job_id, call.caller!.accountId, format, call.clientSignal ?? undefined);
    return new RawBody(report.contentType, report.body, {
      ...report.headers,
      "Content-Disposition": `inline; filename="${report.filename}"`,
    });
  },
});
