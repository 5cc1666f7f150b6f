import { CategoryNameSchema, GradeSchema, REQUIREMENT_STATES, SeveritySchema, SourceSchema } from "@hcs/protocol";
import { z } from "zod";

/**
 * The compliance report of one completed full-scan job, as one typed document: the HTML and PDF renderers only lay
 * it out. Everything in it is already worded for a practice manager (titles, dates, states); nothing is computed
 * by a renderer. It holds counts, locations and configuration facts, never ePHI (the scans report none).
 */

const iso = z.iso.datetime();
const count = z.int().min(0);

export const SeverityCountsSchema = z.object({
  critical: count,
  high: count,
  medium: count,
  low: count,
  info: count,
});

export const TrendPointSchema = z.object({ at: iso, score: z.int().min(0).max(100), grade: GradeSchema });

export const ReportTrendSchema = z.object({
  /** Oldest first, ending with the grade this job produced (at most TREND_POINTS). */
  points: z.array(TrendPointSchema),
  /** Score change against the grade before this job's (null: this is the first grade). */
  change: z.int().nullable(),
  direction: z.enum(["first", "up", "down", "flat"]),
  /** One sentence: "Up 6 points since 2026-11-20 (B → A)." */
  sentence: z.string(),
});

export const ReportCategorySchema = z.object({
  name: CategoryNameSchema,
  title: z.string(),
  source: SourceSchema,
  weight: z.int().min(0).max(100),
  /** null: no data for this category (listed under coverage). */
  score: z.int().min(0).max(100).nullable(),
  findings: SeverityCountsSchema,
});

export const ReportControlSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Required or addressable implementation specification; null for standards and Privacy/Breach rule sections. */
  requirement: z.enum(["required", "addressable"]).nullable(),
});

export const ReportFindingSchema = z.object({
  id: z.string(),
  /** Its place in the report (F-1, F-2, …): what the summary and requirements point to. */
  ref: z.string(),
  title: z.string(),
  severity: SeveritySchema,
  category: CategoryNameSchema,
  category_title: z.string(),
  source: SourceSchema,
  host: z.string().nullable(),
  detail: z.string(),
  /** The finding's evidence flattened to labelled lines (nested values joined), in the order the check gave it. */
  evidence: z.array(z.object({ label: z.string(), value: z.string() })),
  remediation: z.string(),
  controls: z.array(ReportControlSchema),
  /** The grade cap this finding triggers, if any. */
  cap: z.object({ max_grade: GradeSchema, reason: z.string() }).nullable(),
  first_seen: iso,
  last_seen: iso,
});

export const ReportRequirementSchema = z.object({
  number: z.int().min(1).max(13),
  title: z.string(),
  state: z.enum(REQUIREMENT_STATES),
  controls: z.array(z.string()),
  last_verified: iso.nullable(),
  evidence: z.array(
    z.object({
      label: z.string(),
      state: z.enum(REQUIREMENT_STATES),
      detail: z.string(),
      /** Report refs (F-n) of the open findings this evidence holds against the requirement. */
      findings: z.array(z.string()),
    }),
  ),
});

export const ReportAuditRecordSchema = z.object({
  /** What the event logged: "This scan (completed by the job worker)", "Scanner upload from frontdesk-01". */
  label: z.string(),
  /** The audited resource: `job:<id>` or `scan:<id>`. */
  resource: z.string(),
  at: iso,
  event_id: z.int().positive().nullable(),
  /** Place in the audit log's Merkle tree (null until the sequencer has placed it). */
  leaf_index: z.int().min(0).nullable(),
  /** proved: a signed checkpoint covers it; pending: logged, not yet covered; not_logged: made before such events. */
  state: z.enum(["proved", "pending", "not_logged"]),
  /** GET path of the event's proof bundle (null when not logged). */
  proof_path: z.string().nullable(),
});

export const ReportSourceCoverageSchema = z.object({
  source: SourceSchema,
  status: z.enum(["full", "partial", "none"]),
  with_data: z.array(z.string()),
  without_data: z.array(z.string()),
});

export const ReportModelSchema = z.object({
  generated_at: iso,
  practice: z.object({ name: z.string(), npi: z.string() }),
  job: z.object({
    id: z.string(),
    scan_type: z.string(),
    created_at: iso,
    started_at: iso.nullable(),
    completed_at: iso,
    report_path: z.string(),
  }),
  summary: z.object({
    grade: GradeSchema,
    score: z.int().min(0).max(100),
    scoring_version: z.string(),
    scan_date: iso,
    /** The moment the report's grade, findings, counts and coverage are of: the scan's completion. */
    as_of: iso,
    /**
     * Which assessment the report shows, stated as the dashboard states a grade: "This report shows the practice's
     * unified grade as of this scan's completion on …: grade C, 71 out of 100, with … ; coverage: …."
     */
    statement: z.string(),
    /** The practice's grade when the report was generated, if a newer one than the scan's exists (null: none). */
    newer: z
      .object({
        as_of: iso,
        grade: GradeSchema,
        score: z.int().min(0).max(100),
        /** "A newer grade exists. As of this report's generation on …: grade D, 61 out of 100, … ." */
        statement: z.string(),
      })
      .nullable(),
    /** One sentence a practice manager reads first. */
    headline: z.string(),
    caps: z.array(z.object({ max_grade: GradeSchema, reason: z.string() })),
    findings_by_severity: SeverityCountsSchema,
    total_findings: count,
    /** The findings to fix first (report refs and titles), most severe first. */
    fix_first: z.array(z.object({ ref: z.string(), title: z.string(), severity: SeveritySchema })),
    trend: ReportTrendSchema,
  }),
  categories: z.array(ReportCategorySchema),
  findings: z.array(ReportFindingSchema),
  requirements: z.object({
    /** As of the scan's completion; of the report's generation for a scan that kept none (null: not shown). */
    as_of: iso.nullable(),
    /** The sentence above the table: as of when, and how many requirements are in each state (or why none show). */
    note: z.string(),
    summary: z.object({ met: count, partial: count, not_met: count, unknown: count }).nullable(),
    items: z.array(ReportRequirementSchema),
  }),
  coverage: z.object({
    sources: z.array(ReportSourceCoverageSchema),
    /** Every scanner host the internal half rests on, with its phases' latest results. */
    hosts: z.array(
      z.object({
        host: z.string(),
        assessed_phases: count,
        expired_phases: count,
        not_assessed: z.array(z.string()),
        latest_result_at: iso.nullable(),
      }),
    ),
    /** Said instead of the host table when the scan's grade rests on no scanner host. */
    hosts_note: z.string().nullable(),
    /** When each subject was last assessed (as of the requirements'): the external surface, each host, the records. */
    assessments: z.array(z.object({ source: SourceSchema, subject: z.string(), assessed_at: iso })),
  }),
  audit: z.object({
    /** Size of the latest signed checkpoint of the audit log (null before the first). */
    checkpoint_size: z.int().min(0).nullable(),
    verifier_key_path: z.string(),
    records: z.array(ReportAuditRecordSchema),
    /** The steps to fetch and check a proof, in order (commands and paths spelled out). */
    how_to_verify: z.array(z.string()),
  }),
});
export type ReportModel = z.infer<typeof ReportModelSchema>;
export type ReportFinding = z.infer<typeof ReportFindingSchema>;
export type ReportTrend = z.infer<typeof ReportTrendSchema>;
