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
import { evidenceLines } from "./evidence-lines.js";
import { formatDate } from "./format.js";
import { type ReportModel, ReportModelSchema, type ReportTrend } from "./model.js";

/** Grades the trend shows, ending with the job's. */
export const TREND_POINTS = 12;
/** Findings the summary names as the ones to fix first. */
const FIX_FIRST = 5;

type State = "met" | "partial" | "not_met" | "unknown";

/** The 13 requirements as `assessRequirements` reads them: each evidence item with the assessments it read. */
export interface RequirementsReading {
  readonly as_of: string;
  readonly summary: {
    readonly met: number;
    readonly partial: number;
    readonly not_met: number;
    readonly unknown: number;
  };
  readonly requirements: readonly {
    readonly number: number;
    readonly title: string;
    readonly state: State;
    readonly controls: readonly string[];
    readonly last_verified: string | null;
    readonly evidence: readonly {
      readonly kind: "phase" | "external_check" | "administrative";
      readonly ref: string;
      readonly state: State;
      readonly detail: string;
      readonly findings: readonly string[];
      readonly sources: readonly string[];
    }[];
  }[];
}

/** Everything a report is made of, read by the report service (reports/report-service.ts). */
export interface ReportSources {
  /** A completed job with its result. */
  readonly job: Job & { readonly result: JobResult; readonly completed_at: string };
  /** The practice's grade history up to the job's completion, oldest first. */
  readonly history: readonly { readonly at: string; readonly score: number; readonly grade: Grade }[];
  readonly requirements: RequirementsReading;
  /** The latest assessment of each subject: what the requirements' sources name (`job:<id>`, `scan:<id>`). */
  readonly assessments: readonly {
    readonly reference: string | null;
    readonly source: string;
    readonly subject: string;
    readonly assessed_at: string;
  }[];
  /** The audit events that logged the job and the assessments (first successful event per resource). */
  readonly auditEvents: readonly {
    readonly resource: string;
    readonly id: number;
    readonly leaf_index: number | null;
  }[];
  /** Size of the audit log's latest signed checkpoint (null before the first). */
  readonly checkpointSize: number | null;
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
  return `Practice records: ${ref.replace(/_/g, " ")}`;
};

/** The audit events behind the report: this scan's completion first, then every record the requirements read. */
function auditRecordsOf(s: ReportSources): ReportModel["audit"]["records"] {
  const jobResource = `job:${s.job.job_id}`;
  const events = new Map(s.auditEvents.map((e) => [e.resource, e]));
  const assessments = new Map(s.assessments.flatMap((a) => (a.reference ? [[a.reference, a] as const] : [])));
  const resources = [
    jobResource,
    ...new Set(s.requirements.requirements.flatMap((r) => r.evidence.flatMap((e) => e.sources))),
  ].filter((r, i, all) => all.indexOf(r) === i);
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

/**
 * The report of a completed full-scan job (pure): the grade, findings and coverage the job recorded, the grade
 * history's trend up to it, the 13 requirements as of the report's generation, and the audit events that prove the
 * scans it rests on. Validated against ReportModelSchema, so both renderers get the same checked document.
 */
export function buildReportModel(s: ReportSources): ReportModel {
  const result = s.job.result;
  const counts = severityCounts(result.findings);
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
      headline: headlineOf(result, counts),
      caps: result.caps_applied.map((c) => ({ max_grade: c.max_grade, reason: c.reason })),
      findings_by_severity: counts,
      total_findings: result.findings.length,
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
    requirements: {
      as_of: s.requirements.as_of,
      summary: s.requirements.summary,
      items: s.requirements.requirements.map((r) => ({
        number: r.number,
        title: r.title,
        state: r.state,
        controls: [...r.controls],
        last_verified: r.last_verified,
        evidence: r.evidence.map((e) => ({
          label: evidenceLabel(e.kind, e.ref),
          state: e.state,
          detail: e.detail,
          findings: e.findings.map((id) => refOf.get(id) ?? id),
        })),
      })),
    },
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
