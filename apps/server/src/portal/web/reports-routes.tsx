import { z } from "zod";
import type { AppDeps } from "../../app-deps.js";
import { isServiceError } from "../../errors.js";
import { clientGoneSignal } from "../../http/client-gone.js";
import type { Routes } from "../../http/route-template.js";
import { completedReportsOf } from "../../reports/practice-reports.js";
import { REPORT_FORMATS, renderReport, reportSourcesForJob } from "../../reports/report-service.js";
import { PortalError } from "../portal-errors.js";
import { ReportsPage } from "../views/reports.js";
import { ownedPractice } from "./owned-practice.js";
import { requireSignedIn, viewerOf } from "./portal-request.js";
import { sendPage } from "./responses.js";

const ReportQuerySchema = z.object({ format: z.enum(REPORT_FORMATS).default("html") });
const JobIdSchema = z.uuid();

/**
 * The practice's reports: the list of its completed full scans, and each scan's report as the API renders it
 * (`reportSourcesForJob` + `renderReport`, with the signed-in person's account), served under /portal so the session
 * and the account decide who reads it.
 */
export function mountReportsRoutes(router: Routes, deps: AppDeps): void {
  router.get("/portal/practices/:npi/reports", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const [reports, viewer] = await Promise.all([
      completedReportsOf(deps, signedIn.session.user.accountId, practice.npi),
      viewerOf(deps, signedIn, practice.npi),
    ]);
    sendPage(ctx, <ReportsPage viewer={viewer} practiceName={practice.name} npi={practice.npi} reports={reports} />);
  });

  router.get("/portal/practices/:npi/reports/:jobId", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const query = ReportQuerySchema.safeParse(ctx.query);
    if (!query.success) throw new PortalError("invalid_input", `format: ${REPORT_FORMATS.join(" or ")}`);
    const jobId = JobIdSchema.safeParse(ctx.params.jobId);
    if (!jobId.success) throw new PortalError("not_found", "There is no such report.");
    let sources: Awaited<ReturnType<typeof reportSourcesForJob>>;
    try {
      sources = await reportSourcesForJob(deps, jobId.data, signedIn.session.user.accountId);
    } catch (err) {
      // Another account's job and an unknown one read the same; an unfinished one has no report yet.
      if (isServiceError(err) && err.code === "job_not_found")
        throw new PortalError("not_found", "There is no such report.");
      if (isServiceError(err) && err.code === "job_not_completed")
        throw new PortalError("not_found", "This scan has not completed, so it has no report yet.");
      throw err;
    }
    // A job of another practice of the same account is not this page's: its own practice's address serves it.
    if (sources.job.result.npi !== practice.npi) throw new PortalError("not_found", "There is no such report.");
    const report = await renderReport(sources, query.data.format, clientGoneSignal(ctx));
    ctx.set("Content-Type", report.contentType);
    ctx.set("Cache-Control", "no-store");
    // The report's own headers win over the portal's: its CSP allows exactly its hashed inline stylesheet.
    for (const [name, value] of Object.entries(report.headers)) ctx.set(name, value);
    if (query.data.format === "pdf") ctx.set("Content-Disposition", `attachment; filename="${report.filename}"`);
    ctx.body = Buffer.isBuffer(report.body) || typeof report.body === "string" ? report.body : Buffer.from(report.body);
  });
}
