import type { HcsContext } from "../../http/state.js";
import { bindOperation, RawBody } from "../../operations/operation.js";
import { MEDIA_TYPES, reportDeclaration } from "./reports.declaration.js";

/** Content negotiation: `Accept` picks the format unless `?format=` names one. */
function formatFromAccept(ctx: HcsContext): Record<string, unknown> {
  const wanted = ctx.accepts(...Object.values(MEDIA_TYPES));
  return { format: wanted === MEDIA_TYPES.pdf ? "pdf" : wanted === MEDIA_TYPES.html ? "html" : "unacceptable" };
}

export const reportOperation = bindOperation(
  reportDeclaration,
  async ({ job_id, format }, call) => {
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
  { fromHeaders: formatFromAccept },
);
