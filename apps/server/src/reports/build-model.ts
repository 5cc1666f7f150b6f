import {
  CATEGORIES,
  CATEGORY_NAMES,
  GRADE_CAPS,
  GRADES,
  type Grade,
  hipaaControl,
  type Job,
  type JobResult,
  PHASES,
  SEVERITIES,
  type Severity,
  SOURCES,
} from "@hcs/protocol";
import type { EvidenceCoverage } from "../audit/evidence-coverage.js";
import { type GradeStanding, gradeStanding, standingSentence } from "../services/grade-standing.js";
import { withAuditLogAsOf } from "./audit-trail-now.js";
import { evidenceLines } from "./evidence-lines.js";
import { formatDate, formatDateTime } from "./format.js";
import { type ReportModel, ReportModelSchema, type ReportTrend } from "./model.js";
import type { AssessmentReading, RequirementsReading } from "./scan-basis.js";

/** Grades the trend shows, ending with the job's. */
export const TREND_POINTS = 12;
/** Findings the summary names as the ones to fix first. */
const FIX_FIRST = 5;

/** Everything a report is made of, read by the report service (reports/report-service.ts). */
export interface ReportSources {
  /** A completed job with its result. */
  readonly job: Job & { readonly result: JobResult; readonly completed_at: string };
  /** The practice's grade history up to the job's grade, oldest first. */
  readonly history: readonly { readonly at: string; readonly score: number; readonly grade: Grade }[];
  /**
   * The 13 requirements as of the scan's completion (kept with the job, reports/scan-basis.ts); for a scan that
   * kept none, as of the report's generation while nothing has been graded since, else null.
   */
  readonly requirements: RequirementsReading | null;
  /** The latest assessment of each subject as of the requirements: what their sources name (`job:<id>`, `scan:<id>`). */
  readonly assessments: readonly AssessmentReading[];
  /** The practice's standing when the report is generated, if a newer grade than the scan's exists. */
  readonly newer: GradeStanding | null;
  /** The audit events that logged the job and the assessments (first successful event per resource). */
  readonly auditEvents: readonly {
    readonly resource: string;
    readonly id: number;
    readonly leaf_index: number | null;
  }[];
  /** Size of the audit log's latest signed checkpoint (null before the first). */
  readonly checkpointSize: number | null;
  /** Where the records the requirements read stand in the audit log now (requirement 13's audit-log part). */
  readonly auditCoverage?: EvidenceCoverage | null;
  readonly generatedAt: string;
  /** The server's public URL, for the commands the report prints. */
  readonly publicUrl: string;
}

const gradeRank = (g: Grade) => GRADES.indexOf(g);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function severityCounts(findings: readonly { readonly severity: Severity }[]) {
  return Object.fromEntries(SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length])) as Record<
    Severity,
    number
  >;
}

/** The score trend: the last grades up to the job's, and how the job's grade moved from the one before it. */
export function trendOf(history: ReportSources["history"]): ReportTrend {
  const points = history.slice(-TREND_POINTS);
  const last = points.at(-1);
  const prev = points.at(-2);
  if (!last || !prev) {
    return { points, change: null, direction: "first", sentence: "This is the practice's first grade." };
  }
  const change = last.score - prev.score;
  const grades = prev.grade === last.grade ? `still ${last.grade}` : `${prev.grade} → ${last.grade}`;
  const since = `since ${formatDate(prev.at)}`;
  if (change === 0)
    return { points, change, direction: "flat", sentence: `Unchanged ${since} (${last.score}/100, ${grades}).` };
  return {
    points,
    change,
    direction: change > 0 ? "up" : "down",
    sentence: `${change > 0 ? "Up" : "Down"} ${plural(Math.abs(change), "point")} ${since} (${grades}).`,
  };
}

function headlineOf(result: JobResult, counts: Record<Severity, number>): string {
  const urgent = [
    counts.critical > 0 ? `${counts.critical} critical` : null,
    counts.high > 0 ? `${counts.high} high` : null,
  ].filter((x): x is string => x !== null);
  const open = plural(
    SEVERITIES.reduce((n, s) => n + counts[s], 0),
    "open finding",
  );
  const lead = `Grade ${result.grade}, ${result.compliance_score} out of 100, with ${open}${
    urgent.length > 0 ? ` (${urgent.join(" and ")} severity)` : ""
  }.`;
  const cap = [...result.caps_applied].sort((a, b) => gradeRank(b.max_grade) - gradeRank(a.max_grade))[0];
  return cap ? `${lead} The grade can be no better than ${cap.max_grade}: ${cap.reason.replace(/\.$/, "")}.` : lead;
}

const evidenceLabel = (kind: string, ref: string) => {
  if (kind === "phase") return `Scanner phase: ${PHASES.find((p) => p.id === ref)?.title ?? ref}`;
  if (kind === "external_check")
    return `External scan: ${CATEGORIES[ref as keyof typeof CATEGORIES]?.title ?? ref.replace(/_/g, " ")}`;
  if (kind === "audit_log") return "HCS audit log: the practice's evidence, hashed, signed and anchored";
  return `Practice records: ${ref.replace(/_/g, " ")}`;
};

/** Every record the requirements read (`job:<id>`, `scan:<id>`), once each. */
export const requirementSources = (requirements: RequirementsReading | null): string[] => [
  ...new Set((requirements?.requirements ?? []).flatMap((r) => r.evidence.flatMap((e) => e.sources))),
];

/** The audit events behind the report: this scan's completion first, then every record the requirements read. */
function auditRecordsOf(s: ReportSources): ReportModel["audit"]["records"] {
  const jobResource = `job:${s.job.job_id}`;
  const events = new Map(s.auditEvents.map((e) => [e.resource, e]));
  const assessments = new Map(s.assessments.flatMap((a) => (a.reference ? [[a.reference, a] as const] : [])));
  const resources = [jobResource, ...requirementSources(s.requirements)].filter((r, i, all) => all.indexOf(r) === i);
  return resources.flatMap((resource) => {
    const a = assessments.get(resource);
    const isThisJob = resource === jobResource;
    if (!isThisJob && !a) return [];
    const e = events.get(resource);
    const proved = e?.leaf_index != null && s.checkpointSize !== null && e.leaf_index < s.checkpointSize;
    return [
      {
        label: isThisJob
          ? "This scan, completed by the HCS job worker"
          : resource.startsWith("scan:")
            ? `Scanner upload from ${a!.subject}`
            : `External scan of ${a!.subject}`,
        resource,
        at: isThisJob ? s.job.completed_at : a!.assessed_at,
        event_id: e?.id ?? null,
        leaf_index: e?.leaf_index ?? null,
        state: !e ? "not_logged" : proved ? "proved" : "pending",
        proof_path: e ? `/v1/a2a/audit/events/${e.id}/proof` : null,
      },
    ];
  });
}

/** The requirements section: its rows, and the sentence that says as of when they are (or why none show). */
function requirementsOf(s: ReportSources, refOf: ReadonlyMap<string, string>): ReportModel["requirements"] {
  const r = withAuditLogAsOf(s.requirements, s.auditCoverage ?? null, s.generatedAt);
  if (!r)
    return {
      as_of: null,
      note: "This scan's requirements were not kept when it completed (it ran before HCS kept them with each scan), and the practice has been graded since: hipaa.compliance_state gives the current ones.",
      summary: null,
      items: [],
    };
  const when =
    r.as_of === s.job.completed_at
      ? `As of this scan's completion on ${formatDateTime(r.as_of)}`
      : `As of ${formatDateTime(r.as_of)} (this scan did not keep its own; nothing has been graded since it completed)`;
  const n = r.summary;
  return {
    as_of: r.as_of,
    note: `${when}: ${n.met} met, ${n.partial} partial, ${n.not_met} not met, ${n.unknown} unknown (not assessed, or no evidence yet).${
      r.requirements.some((x) => x.evidence.some((e) => e.kind === "audit_log")) && s.auditCoverage
        ? " The audit-log part of requirement 13 is as of this report's generation, as the audit proof references are."
        : ""
    }`,
    summary: r.summary,
    items: r.requirements.map((item) => ({
      number: item.number,
      title: item.title,
      state: item.state,
      controls: [...item.controls],
      last_verified: item.last_verified,
      evidence: item.evidence.map((e) => ({
        label: evidenceLabel(e.kind, e.ref),
        state: e.state,
        detail: e.detail,
        findings: e.findings.map((id) => refOf.get(id) ?? id),
      })),
    })),
  };
}

/**
 * The report of a completed full-scan job (pure): the unified grade as of the scan's completion — its findings,
 * counts and coverage as the job recorded them, the grade history's trend up to it, the 13 requirements kept with it
 * — the newer grade when one exists, and the audit events that prove the scans it rests on. Validated against
 * ReportModelSchema, so both renderers get the same checked document.
 */
export function buildReportModel(s: ReportSources): ReportModel {
  const result = s.job.result;
  const standing = gradeStanding(result, result.findings);
  const counts = standing.findings_by_severity;
  const refOf = new Map(result.findings.map((f, i) => [f.id, `F-${i + 1}`]));
  const findings = result.findings.map((f) => {
    const cap = f.grade_cap ? GRADE_CAPS[f.grade_cap] : null;
    return {
      id: f.id,
      ref: refOf.get(f.id)!,
      title: f.title,
      severity: f.severity,
      category: f.category,
      category_title: CATEGORIES[f.category].title,
      source: f.source,
      host: f.host ?? null,
      detail: f.detail,
      evidence: evidenceLines(f.evidence),
      remediation: f.remediation,
      controls: f.controls.map((id) => {
        const c = hipaaControl(id);
        return {
          id,
          title: c?.title ?? "",
          requirement: c?.kind === "implementation_specification" ? c.requirement : null,
        };
      }),
      cap: cap ? { max_grade: cap.max_grade, reason: cap.reason } : null,
      first_seen: f.first_seen,
      last_seen: f.last_seen,
    };
  });
  const basis = result.internal_basis;
  return ReportModelSchema.parse({
    generated_at: s.generatedAt,
    practice: { name: result.practice_name, npi: result.npi },
    job: {
      id: s.job.job_id,
      scan_type: s.job.scan_type,
      created_at: s.job.created_at,
      started_at: s.job.started_at,
      completed_at: s.job.completed_at,
      report_path: `/v1/a2a/reports/${s.job.job_id}`,
    },
    summary: {
      grade: result.grade,
      score: result.compliance_score,
      scoring_version: result.scoring_version,
      scan_date: result.scan_date,
      as_of: s.job.completed_at,
      statement: `This report shows the practice's unified grade as of this scan's completion on ${formatDateTime(s.job.completed_at)}: ${standingSentence(standing)}`,
      newer: s.newer
        ? {
            as_of: s.generatedAt,
            grade: s.newer.record.grade,
            score: s.newer.record.compliance_score,
            statement: `A newer grade exists. As of this report's generation on ${formatDateTime(s.generatedAt)}: ${standingSentence(s.newer)} The dashboard and the API state this one; a new scan gives a report of it.`,
          }
        : null,
      headline: headlineOf(result, counts),
      caps: result.caps_applied.map((c) => ({ max_grade: c.max_grade, reason: c.reason })),
      findings_by_severity: counts,
      total_findings: standing.total_findings,
      fix_first: findings
        .filter((f) => f.severity !== "info")
        .slice(0, FIX_FIRST)
        .map((f) => ({ ref: f.ref, title: f.title, severity: f.severity })),
      trend: trendOf(s.history),
    },
    categories: CATEGORY_NAMES.map((name) => ({
      name,
      title: CATEGORIES[name].title,
      source: CATEGORIES[name].source,
      weight: CATEGORIES[name].weight,
      score: result.categories[name]?.score ?? null,
      findings: severityCounts(result.findings.filter((f) => f.category === name)),
    })),
    findings,
    requirements: requirementsOf(s, refOf),
    coverage: {
      sources: SOURCES.map((source) => ({
        source,
        status: result.coverage[source].status,
        with_data: result.coverage[source].categories_with_data.map((c) => CATEGORIES[c].title),
        without_data: result.coverage[source].categories_without_data.map((c) => CATEGORIES[c].title),
      })),
      hosts: (basis?.hosts ?? []).map((h) => ({
        host: h.host,
        assessed_phases: h.phases.length,
        expired_phases: h.phases.filter((p) => p.state === "expired").length,
        not_assessed: h.not_assessed.map((id) => PHASES.find((p) => p.id === id)?.title ?? id),
        latest_result_at:
          h.phases
            .map((p) => p.assessed_at)
            .sort()
            .at(-1) ?? null,
      })),
      hosts_note:
        (basis?.hosts.length ?? 0) === 0 && result.coverage.internal.status === "none"
          ? "No internal scanner had uploaded results when this scan completed: the internal categories had no data."
          : null,
      assessments: [...s.assessments]
        .sort(
          (a, b) =>
            SOURCES.indexOf(a.source as never) - SOURCES.indexOf(b.source as never) ||
            a.subject.localeCompare(b.subject),
        )
        .map((a) => ({ source: a.source, subject: a.subject, assessed_at: a.assessed_at })),
    },
    audit: {
      checkpoint_size: s.checkpointSize,
      verifier_key_path: "/.well-known/hcs-audit-log-key",
      records: auditRecordsOf(s),
      how_to_verify: [
        `Fetch an event's proof bundle with your API key: curl -H "X-API-Key: $HCS_API_KEY" ${s.publicUrl}/v1/a2a/audit/events/<event id>/proof > proof.json (409 not_checkpointed until a signed checkpoint covers the event).`,
        `Fetch the audit log's verifier key once, from ${s.publicUrl}/.well-known/hcs-audit-log-key, and keep it.`,
        "Check the bundle offline: hcs-server audit verify-proof proof.json --verifier-key @log-key.txt (exit code 0: the event is in the signed log).",
      ],
    },
  });
}
