import { type GradeRecord, type JobResult, JobResultSchema, SEVERITIES } from "@hcs/protocol";
import type { Transaction } from "kysely";
import { countBySeverity, openFindings } from "../services/grades.js";
import type { Database } from "../store/schema.js";

const SEVERITY_RANK = Object.fromEntries(SEVERITIES.map((s, i) => [s, i])) as Record<string, number>;
const TOP_FINDINGS = 5;

/**
 * What a completed full scan returns: the unified grade record, the practice's open findings (every source, so
 * the result explains the grade), and report data — counts by severity and the findings to fix first.
 */
export async function buildJobResult(trx: Transaction<Database>, grade: GradeRecord): Promise<JobResult> {
  const findings = (await openFindings(trx, grade.npi)).sort(
    (a, b) =>
      SEVERITY_RANK[a.severity]! - SEVERITY_RANK[b.severity]! ||
      (a.grade_cap ? -1 : 0) - (b.grade_cap ? -1 : 0) ||
      a.id.localeCompare(b.id),
  );
  return JobResultSchema.parse({
    ...grade,
    findings,
    report: {
      findings_by_severity: countBySeverity(findings),
      top_findings: findings
        .filter((f) => f.severity !== "info")
        .slice(0, TOP_FINDINGS)
        .map((f) => ({ id: f.id, title: f.title, severity: f.severity })),
    },
  });
}
