import { z } from "zod";
import { CategoryNameSchema, GradeSchema } from "./categories.js";
import { NpiSchema } from "./npi.js";
import { PhaseIdSchema } from "./phases.js";
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

/**
 * How long an internal phase result vouches for a host: after this many days without a newer result of the same
 * phase the result reads "expired" and its clean bill no longer counts (its open findings still do; docs/scanner.md).
 */
export const INTERNAL_RESULT_MAX_AGE_DAYS = 30;

const InternalPhaseBasisSchema = z.object({
  phase: PhaseIdSchema,
  /** current: younger than the window, it counts; expired: older, only its open findings still count. */
  state: z.enum(["current", "expired"]),
  /** When the scan that produced the result completed. */
  assessed_at: z.iso.datetime(),
  /** Whole days from assessed_at to the basis' as_of. */
  age_days: z.int().min(0),
  expires_at: z.iso.datetime(),
  /** For network phases: the scope the result covered (as the scanner gave it). */
  scope: z.object({ mode: z.enum(["host", "targets", "auto"]), targets: z.array(z.string()) }).optional(),
});

/** What the internal half of a grade rests on: the latest result of each phase on each scanner host. */
export const InternalBasisSchema = z
  .object({
    /** The time ages and states were computed at. */
    as_of: z.iso.datetime(),
    max_age_days: z.int().min(1),
    hosts: z.array(
      z.object({
        host: z.string(),
        phases: z.array(InternalPhaseBasisSchema),
        /** Phases this host never completed: they say nothing about it. */
        not_assessed: z.array(PhaseIdSchema),
      }),
    ),
  })
  .meta({
    id: "InternalBasis",
    description: "The latest result per scanner host and phase that the internal categories rest on, with its age",
  });
export type InternalBasis = z.infer<typeof InternalBasisSchema>;

/**
 * The grade record: score, grade, categories, scan date, coverage, caps and the scoring version. It is public by NPI
 * — any valid key may look it up — so it carries nothing from the practice's internal scanner beyond which
 * categories had data (docs/security.md, "Who may read what").
 */
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

/**
 * The grade record as its practice's owner reads it (a job's result, a scan upload's answer, the practice status,
 * the compliance state): the public record plus what the internal categories rest on — scanner host names and
 * network scopes, which only the owner may see.
 */
export const OwnerGradeRecordSchema = GradeRecordSchema.extend({
  /** Present once a scanner has uploaded: which phases and hosts the internal categories rest on. */
  internal_basis: InternalBasisSchema.optional(),
}).meta({ id: "OwnerGradeRecord", description: "A practice's grade record with the internal basis its owner may see" });
export type OwnerGradeRecord = z.infer<typeof OwnerGradeRecordSchema>;
