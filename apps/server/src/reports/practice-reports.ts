import { GradeSchema } from "@hcs/protocol";
import { z } from "zod";
import type { ServiceDeps } from "../services/deps.js";

/** A completed full scan of a practice, as the portal's Reports page lists it (its report is rendered on demand). */
export interface PracticeReportEntry {
  readonly job_id: string;
  readonly completed_at: string;
  /** The grade the scan recorded; null when its stored result does not carry one. */
  readonly grade: z.infer<typeof GradeSchema> | null;
  readonly score: number | null;
}

/** The few fields of a stored result a listing needs; the rest (findings, coverage) is read only by the report. */
const ResultGradeSchema = z.object({ grade: GradeSchema, compliance_score: z.number() });

export const PRACTICE_REPORTS_MAX = 50;

/**
 * The account's completed jobs of one practice, newest first: the jobs whose report `jobReport` renders. The
 * account filter is the same rule the report applies (another account's job has no report here), so a practice
 * that changed hands does not list the former owner's scans.
 */
export async function completedReportsOf(
  deps: ServiceDeps,
  accountId: string,
  npi: string,
  limit = PRACTICE_REPORTS_MAX,
): Promise<PracticeReportEntry[]> {
  const rows = await deps.store.db
    .selectFrom("jobs")
    .select(["id", "completed_at", "result"])
    .where("account_id", "=", accountId)
    .where("npi", "=", npi)
    .where("status", "=", "completed")
    .where("result", "is not", null)
    .where("completed_at", "is not", null)
    .orderBy("completed_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => {
    const grade = ResultGradeSchema.safeParse(JSON.parse(row.result!));
    return {
      job_id: row.id,
      completed_at: row.completed_at!,
      grade: grade.success ? grade.data.grade : null,
      score: grade.success ? grade.data.compliance_score : null,
    };
  });
}
