import { type GradeRecord, SEVERITIES, type Severity, SOURCES } from "@hcs/protocol";
import { sql } from "kysely";
import type { ServiceDeps } from "./deps.js";
import { countBySeverity, ownerGradeForNpi } from "./grades.js";

/**
 * What every page and answer states about a practice's grade at one moment — the score, the grade, the open
 * findings by severity and each source's coverage — taken from one grade record and the open findings it counted.
 * The portal's dashboard and the compliance report both print it with {@link standingSentence}; the API's grade
 * record carries the same score, grade and coverage, and hipaa.findings the same findings.
 */
export interface GradeStanding {
  readonly record: GradeRecord;
  readonly findings_by_severity: Record<Severity, number>;
  readonly total_findings: number;
}

/** The standing of a grade record with the open findings it counted (a job's result holds both). */
export function gradeStanding(record: GradeRecord, findings: readonly { readonly severity: string }[]): GradeStanding {
  return { record, findings_by_severity: countBySeverity(findings), total_findings: findings.length };
}

/**
 * The practice's standing now: its current grade record as the API answers it (ownerGradeForNpi) and its open findings
 * counted by severity (those hipaa.findings lists). npi_not_found, no_grade_yet as ownerGradeForNpi.
 */
export async function currentGradeStanding(deps: ServiceDeps, npi: string): Promise<GradeStanding> {
  const [record, rows] = await Promise.all([
    ownerGradeForNpi(deps, npi),
    deps.store.db
      .selectFrom("findings")
      .select(["severity", sql<number>`count(*)`.as("n")])
      .where("npi", "=", npi)
      .where("resolved_at", "is", null)
      .groupBy("severity")
      .execute(),
  ]);
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const r of rows) if (r.severity in counts) counts[r.severity as Severity] = Number(r.n);
  return {
    record,
    findings_by_severity: counts,
    total_findings: SEVERITIES.reduce((n, s) => n + counts[s], 0),
  };
}

/**
 * One sentence (lower-case start, to follow "as of …:") stating a standing: "grade D, 61 out of 100, with 12 open
 * findings (1 critical, 3 high, 4 medium, 2 low, 2 info); coverage: external full, internal partial, administrative
 * none." Every severity and every source is named, so two statements compare word for word.
 */
export function standingSentence(s: GradeStanding): string {
  const counts = SEVERITIES.map((sev) => `${s.findings_by_severity[sev]} ${sev}`).join(", ");
  const coverage = SOURCES.map((src) => `${src} ${s.record.coverage[src].status}`).join(", ");
  const findings = `${s.total_findings} open finding${s.total_findings === 1 ? "" : "s"}`;
  return `grade ${s.record.grade}, ${s.record.compliance_score} out of 100, with ${findings} (${counts}); coverage: ${coverage}.`;
}

/** Whether two standings state the same score, grade, counts and coverage. */
export function sameStanding(a: GradeStanding, b: GradeStanding): boolean {
  return standingSentence(a) === standingSentence(b);
}
