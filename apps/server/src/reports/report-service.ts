import type { Grade, JobResult } from "@hcs/protocol";
import type { AppDeps } from "../app-deps.js";
import { accountLoggingEvents } from "../audit/evidence.js";
import { readEvidenceCoverage } from "../audit/evidence-coverage.js";
import { isServiceError, ServiceError } from "../errors.js";
import { assessRequirements, readPracticeEvidence } from "../services/compliance-state.js";
import type { ServiceDeps } from "../services/deps.js";
import { currentGradeStanding, gradeStanding, sameStanding } from "../services/grade-standing.js";
import { jobViewInSlices } from "../services/job-view-in-slices.js";
import { pollUrlOf } from "../services/jobs.js";
import { buildReportModel, type ReportSources, requirementSources, TREND_POINTS } from "./build-model.js";
import type { ReportFormat } from "./formats.js";
import type { ReportModel } from "./model.js";
import { reportRenderThread } from "./render-thread.js";
import { scanBasisOf } from "./scan-basis.js";

/** What a report service needs: the store and clock, and the public URL the report's commands point at. */
export type ReportDeps = ServiceDeps & { readonly config: Pick<AppDeps["config"], "publicUrl"> };

export { REPORT_FORMATS, type ReportFormat } from "./formats.js";

/**
 * The report model of a completed job of the account (the REST operation and the portal call this). Another
 * account's job is `job_not_found`, as an unknown one is: nobody learns that someone else's job exists. A job that
 * has not completed — accepted, running, failed or cancelled — is `job_not_completed` with its status.
 */
export async function reportModelForJob(deps: ReportDeps, jobId: string, accountId: string): Promise<ReportModel> {
  return buildReportModel(await reportSourcesForJob(deps, jobId, accountId));
}

/** Reads what the report of a completed job of the account is made of (errors as {@link reportModelForJob}). */
export async function reportSourcesForJob(deps: ReportDeps, jobId: string, accountId: string): Promise<ReportSources> {
  const row = await deps.store.db.selectFrom("jobs").selectAll().where("id", "=", jobId).executeTakeFirst();
  if (!row || row.account_id !== accountId) throw new ServiceError("job_not_found", `no job ${jobId}`);
  if (row.claim_id)
    throw new ServiceError(
      "forbidden",
      "a scan dispatched on a claim not proved yet has no report (its findings are the owner's): prove control of the domain, then scan again",
    );
  if (row.status !== "completed" || !row.result || !row.completed_at) {
    const why =
      row.error_code === "cancelled" && row.status === "failed"
        ? "it was cancelled before it ran"
        : row.status === "failed"
          ? `it failed (${row.error_code ?? "internal"}); dispatch a new scan`
          : `it is ${row.status}; poll it and read the report once it has completed`;
    throw new ServiceError("job_not_completed", `job ${jobId} has no report: ${why}`, {
      status: row.status,
      poll_url: pollUrlOf(jobId),
    });
  }
  const job = await jobViewInSlices(row);
  // Checked against JobResultSchema by jobViewInSlices (a completed job's row has a result: checked above).
  const result = job.result as JobResult;
  const completedAt = row.completed_at;
  const db = deps.store.db;
  const basis = scanBasisOf(row.report_basis);
  // The grade row the scan appended: kept with the job; for a job from before, the row its completion stored.
  const gradeId: number | null =
    basis?.grade_id ??
    (await db
      .selectFrom("grades")
      .select((eb) => eb.fn.max("id").as("id"))
      .where("npi", "=", row.npi)
      .where("computed_at", "=", completedAt)
      .executeTakeFirst()
      .then((g) => (g?.id == null ? null : Number(g.id))));
  // The practice's standing now, as the dashboard and the API state it (read before the latest row: a lookup may
  // append the grade an expired internal result changed).
  const current = await currentGradeStanding(deps, row.npi).catch((err: unknown) => {
    // A practice removed since has no grade now: the report still shows its scan.
    if (isServiceError(err) && err.code === "npi_not_found") return null;
    throw err;
  });
  const [history, latest, checkpoint] = await Promise.all([
    db
      .selectFrom("grades")
      .select(["computed_at", "compliance_score", "grade"])
      .where("npi", "=", row.npi)
      .$if(gradeId === null, (q) => q.where("computed_at", "<=", completedAt))
      .$if(gradeId !== null, (q) => q.where("id", "<=", gradeId!))
      .orderBy("id", "desc")
      .limit(TREND_POINTS)
      .execute(),
    db
      .selectFrom("grades")
      .select((eb) => eb.fn.max("id").as("id"))
      .where("npi", "=", row.npi)
      .executeTakeFirst(),
    db
      .selectFrom("audit_checkpoints")
      .select((eb) => eb.fn.max("size").as("size"))
      .executeTakeFirst(),
  ]);
  const latestId = latest?.id == null ? null : Number(latest.id);
  const newer =
    current &&
    (gradeId === null || latestId !== gradeId || !sameStanding(current, gradeStanding(result, result.findings)))
      ? current
      : null;
  const generatedAt = deps.now().toISOString();
  // The requirements as of the scan's completion; a scan that kept none is read now while nothing has changed since.
  let requirements: ReportSources["requirements"] = basis?.requirements ?? null;
  let assessments: ReportSources["assessments"] = basis?.assessments ?? [];
  if (!basis && !newer) {
    const evidence = await readPracticeEvidence(deps, row.npi);
    requirements = assessRequirements(row.npi, generatedAt, evidence);
    assessments = evidence.assessments;
  }
  const [events, auditCoverage] = await Promise.all([
    accountLoggingEvents(deps, [`job:${jobId}`, ...requirementSources(requirements)], accountId),
    readEvidenceCoverage(db, deps.store.engine, requirementSources(requirements)),
  ]);
  return {
    job: { ...job, result, completed_at: completedAt },
    history: history.reverse().map((h) => ({ at: h.computed_at, score: h.compliance_score, grade: h.grade as Grade })),
    requirements,
    assessments: assessments.map((a) => ({
      reference: a.reference,
      source: a.source,
      subject: a.subject,
      assessed_at: a.assessed_at,
    })),
    newer,
    auditEvents: [...events.values()].map((e) => ({
      resource: e.resource!,
      id: Number(e.id),
      leaf_index: e.leaf_index === null ? null : Number(e.leaf_index),
    })),
    checkpointSize: checkpoint?.size == null ? null : Number(checkpoint.size),
    auditCoverage,
    generatedAt,
    publicUrl: deps.config.publicUrl,
  };
}

/** A rendered report: its bytes, media type and the headers it must be served with. */
export interface RenderedReport {
  readonly contentType: string;
  readonly body: string | Uint8Array;
  readonly filename: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The report file name: practice NPI and scan date, so downloads sort and never collide across practices. */
const fileNameOf = (sources: ReportSources, ext: string) =>
  `hcs-report-${sources.job.result.npi}-${sources.job.completed_at.slice(0, 10)}-${sources.job.job_id.slice(0, 8)}.${ext}`;

/**
 * Builds the report of `sources` and lays it out as HTML (self-contained, with its CSP) or PDF, both on the report
 * thread, off the event loop (render-thread.ts). `signal`: the client's connection; once it is gone, a report still
 * waiting is not made.
 */
export async function renderReport(
  sources: ReportSources,
  format: ReportFormat,
  signal?: AbortSignal,
): Promise<RenderedReport> {
  const page = await reportRenderThread.render(sources, format, signal);
  if ("pdf" in page)
    return { contentType: "application/pdf", body: page.pdf, filename: fileNameOf(sources, "pdf"), headers: {} };
  return {
    contentType: "text/html; charset=utf-8",
    body: page.html.html,
    filename: fileNameOf(sources, "html"),
    headers: { "Content-Security-Policy": page.html.contentSecurityPolicy },
  };
}

/** The report of a completed job of the account, rendered: what `GET /v1/a2a/reports/{job_id}` and the portal serve. */
export async function jobReport(
  deps: ReportDeps,
  jobId: string,
  accountId: string,
  format: ReportFormat,
  signal?: AbortSignal,
): Promise<RenderedReport> {
  return renderReport(await reportSourcesForJob(deps, jobId, accountId), format, signal);
}
