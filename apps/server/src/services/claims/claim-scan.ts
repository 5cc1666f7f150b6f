import { type GradeRecord, GradeRecordSchema, type ScorableFinding, scorePractice } from "@hcs/protocol";
import type { Transaction } from "kysely";
import type { JobOutput } from "../../jobs/executors.js";
import type { Database, JobsTable } from "../../store/schema.js";
import { assessedSubject } from "../scoring-subject.js";

/**
 * What a claimant's scan answers (a scan dispatched on a claim not proved yet): the public grade of the claimed
 * domain, computed from this scan alone and kept with the job. Nothing is recorded for the practice — no
 * assessment, no finding, no grade in its history — so an unproved claim can neither read nor change what the NPI's
 * grade says; the findings are discarded (they are the owner's, and no owner has been proved).
 */
export async function claimScanResultIn(
  trx: Transaction<Database>,
  job: JobsTable,
  output: JobOutput,
  at: Date,
): Promise<GradeRecord | null> {
  const practice = await trx.selectFrom("practices").select("name").where("npi", "=", job.npi).executeTakeFirst();
  const findings: ScorableFinding[] = output.findings.map((f) => ({
    category: f.category,
    severity: f.severity,
    ...(f.grade_cap ? { grade_cap: f.grade_cap } : {}),
  }));
  const result = scorePractice([assessedSubject(output.source, output.subject, output.categories, findings)]);
  if (!result) return null;
  return GradeRecordSchema.parse({
    npi: job.npi,
    practice_name: practice?.name ?? `NPI ${job.npi}`,
    compliance_score: result.compliance_score,
    grade: result.grade,
    categories: result.categories,
    scan_date: at.toISOString(),
    coverage: result.coverage,
    caps_applied: result.caps_applied,
    scoring_version: result.scoring_version,
  });
}
