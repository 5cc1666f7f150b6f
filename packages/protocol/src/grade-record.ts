import { z } from "zod";
import { CategoryNameSchema, GradeSchema } from "./categories.js";
import { NpiSchema } from "./npi.js";
import { AppliedCapSchema } from "./scoring/caps.js";

const score = z.int().min(0).max(100);

export const CategoryScoreSchema = z.object({ score, weight: z.int().min(0).max(100) });

export const SourceCoverageSchema = z.object({
  status: z.enum(["full", "partial", "none"]),
  categories_with_data: z.array(CategoryNameSchema),
  categories_without_data: z.array(CategoryNameSchema),
});

export const CoverageSchema = z
  .object({
    external: SourceCoverageSchema,
    internal: SourceCoverageSchema,
    administrative: SourceCoverageSchema,
  })
  .meta({ id: "Coverage", description: "Which score categories had data, by source" });

/** The grade record (spec §2) plus coverage, caps and the scoring version. */
export const GradeRecordSchema = z
  .object({
    npi: NpiSchema,
    practice_name: z.string(),
    compliance_score: score,
    grade: GradeSchema,
    categories: z.partialRecord(CategoryNameSchema, CategoryScoreSchema),
    scan_date: z.iso.datetime(),
    coverage: CoverageSchema,
    caps_applied: z.array(AppliedCapSchema),
    scoring_version: z.string(),
  })
  .meta({ id: "GradeRecord", description: "A practice's unified compliance score and letter grade" });
export type GradeRecord = z.infer<typeof GradeRecordSchema>;
