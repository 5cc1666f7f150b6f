import { REQUIREMENT_EVIDENCE_KINDS, REQUIREMENT_STATES } from "@hcs/protocol";
import type { Transaction } from "kysely";
import { z } from "zod";
import { assessRequirements, readPracticeEvidenceIn } from "../services/compliance-state.js";
import type { Engine } from "../store/migrations/engine.js";
import type { Database } from "../store/schema.js";

/*
 * What a scan's report rests on besides the job's result, fixed when the job completes: the grade row the scan
 * appended (the report's grade is that one: its trend ends there, and any later row is a newer grade) and the 13
 * requirements with the assessments they read, as of the completion. Read later, the store's current requirements
 * would pair the scan's grade with evidence from another moment (a scanner upload after the scan cited by a report
 * whose grade had no internal data).
 */

const state = z.enum(REQUIREMENT_STATES);

/** The 13 requirements as `assessRequirements` reads them: each evidence item with the assessments it read. */
export const RequirementsReadingSchema = z.object({
  as_of: z.string(),
  summary: z.object({ met: z.int(), partial: z.int(), not_met: z.int(), unknown: z.int() }),
  requirements: z.array(
    z.object({
      number: z.int(),
      title: z.string(),
      state,
      controls: z.array(z.string()),
      last_verified: z.string().nullable(),
      evidence: z.array(
        z.object({
          kind: z.enum(REQUIREMENT_EVIDENCE_KINDS),
          ref: z.string(),
          state,
          detail: z.string(),
          findings: z.array(z.string()),
          sources: z.array(z.string()),
        }),
      ),
    }),
  ),
});
export type RequirementsReading = z.infer<typeof RequirementsReadingSchema>;

/** The latest assessment of each subject (`reference`: what the requirements' sources name: `job:<id>`, `scan:<id>`). */
export const AssessmentReadingSchema = z.object({
  reference: z.string().nullable(),
  source: z.string(),
  subject: z.string(),
  assessed_at: z.string(),
});
export type AssessmentReading = z.infer<typeof AssessmentReadingSchema>;

export const ScanBasisSchema = z.object({
  /** The grades row the scan's completion appended. */
  grade_id: z.int().positive(),
  requirements: RequirementsReadingSchema,
  assessments: z.array(AssessmentReadingSchema),
});
export type ScanBasis = z.infer<typeof ScanBasisSchema>;

/**
 * Keeps a completing job's basis on its row, in the transaction that stores its assessment and result (after the
 * grade is appended): what the practice's evidence says at `completedAt`, read through that transaction.
 */
export async function recordScanBasisIn(
  trx: Transaction<Database>,
  job: { readonly id: string; readonly npi: string },
  completedAt: Date,
  engine: Engine,
): Promise<void> {
  const [grade, evidence] = await Promise.all([
    trx
      .selectFrom("grades")
      .select((eb) => eb.fn.max("id").as("id"))
      .where("npi", "=", job.npi)
      .executeTakeFirst(),
    readPracticeEvidenceIn(trx, job.npi, completedAt, engine),
  ]);
  if (grade?.id == null) return;
  const basis = ScanBasisSchema.parse({
    grade_id: Number(grade.id),
    requirements: assessRequirements(job.npi, completedAt.toISOString(), evidence),
    assessments: evidence.assessments,
  });
  await trx
    .updateTable("jobs")
    .set({ report_basis: JSON.stringify(basis) })
    .where("id", "=", job.id)
    .execute();
}

/** A job row's basis, or null when it has none (completed before bases were kept) or it does not read. */
export function scanBasisOf(text: string | null): ScanBasis | null {
  if (text === null) return null;
  try {
    const parsed = ScanBasisSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
