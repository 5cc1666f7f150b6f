import { z } from "zod";
import { CategoryNameSchema, GradeSchema, SeveritySchema, SourceSchema } from "./categories.js";
import { GradeLookupSchema } from "./directory.js";
import { ErrorCodeSchema } from "./errors.js";
import { FindingSchema } from "./finding.js";
import { CONTROL_SECTIONS, HipaaControlIdSchema } from "./hipaa/controls.js";
import { AuditProofBundleSchema } from "./merkle/audit-proof.js";
import { NpiSchema } from "./npi.js";

/*
 * Inputs and results of the agent methods (docs/api.md) that read what the scans recorded: findings, batches of
 * grades, the control catalogue, the 13 requirements' state and the change between two assessments.
 */

export const FINDINGS_PAGE_MAX = 200;
export const FINDINGS_PAGE_DEFAULT = 50;

export const FindingsQuerySchema = z
  .strictObject({
    npi: NpiSchema,
    severity: z.array(SeveritySchema).min(1).max(5).optional(),
    category: CategoryNameSchema.optional(),
    source: SourceSchema.optional(),
    status: z.enum(["open", "resolved"]).default("open"),
    host: z.string().min(1).max(255).optional(),
    limit: z.int().min(1).max(FINDINGS_PAGE_MAX).default(FINDINGS_PAGE_DEFAULT),
    /** Opaque: the `next_cursor` of the previous page. */
    cursor: z.string().min(1).max(1024).optional(),
  })
  .meta({ id: "FindingsQuery" });
export type FindingsQuery = z.input<typeof FindingsQuerySchema>;

export const StoredFindingSchema = FindingSchema.extend({
  status: z.enum(["open", "resolved"]),
  resolved_at: z.iso.datetime().nullable(),
}).meta({ id: "StoredFinding", description: "A finding with where it stands: open, or resolved and when" });

export const FindingsPageSchema = z
  .object({
    npi: NpiSchema,
    findings: z.array(StoredFindingSchema),
    /** Pass as `cursor` for the next page; null on the last one. */
    next_cursor: z.string().nullable(),
  })
  .meta({ id: "FindingsPage", description: "One page of a practice's findings, most severe first" });
export type FindingsPage = z.infer<typeof FindingsPageSchema>;

export const BATCH_MAX_NPIS = 100;

export const BatchRequestSchema = z
  .strictObject({
    /** Checked one by one: an invalid NPI is an error in its own result, not a refusal of the batch. */
    npis: z.array(z.string().max(64)).min(1).max(BATCH_MAX_NPIS),
    operation: z.literal("grade").default("grade"),
  })
  .meta({ id: "BatchRequest" });

/**
 * One NPI's answer in a batch: what the single lookup (`hipaa.grade`) answers for it — a grade record, or a directory
 * NPI's not_yet_assessed — or the error it would get.
 */
export const BatchEntrySchema = z.discriminatedUnion("ok", [
  z.object({ npi: z.string(), ok: z.literal(true), grade: GradeLookupSchema }),
  z.object({
    npi: z.string(),
    ok: z.literal(false),
    error: z.object({ code: ErrorCodeSchema, message: z.string() }),
  }),
]);

export const BatchResultSchema = z
  .object({
    operation: z.literal("grade"),
    /** One entry per distinct NPI asked for, in the order first asked. */
    results: z.array(BatchEntrySchema),
    /** NPIs that had a grade record (not_yet_assessed answers are not counted): each is charged as one grade lookup. */
    graded: z.int().min(0),
  })
  .meta({ id: "BatchResult" });
export type BatchResult = z.infer<typeof BatchResultSchema>;

export const ControlsQuerySchema = z
  .strictObject({
    ids: z.array(HipaaControlIdSchema).min(1).max(100).optional(),
    /** A standard's id: that standard and its implementation specifications. */
    standard: HipaaControlIdSchema.optional(),
    /** One of the 13 requirements: the controls it maps to. */
    requirement: z
      .string()
      .regex(/^[a-z_]+$/)
      .max(64)
      .optional(),
    section: z.enum(CONTROL_SECTIONS).optional(),
  })
  .meta({ id: "ControlsQuery" });

export const VerificationSchema = z.object({
  source: SourceSchema,
  /** What HCS runs or reads: an external check id, a scanner phase id or an administrative record. */
  by: z.string(),
  description: z.string(),
});

export const ControlEntrySchema = z
  .object({
    id: HipaaControlIdSchema,
    section: z.string(),
    kind: z.enum(["standard", "implementation_specification"]),
    title: z.string(),
    requirement: z.enum(["required", "addressable"]),
    standard: HipaaControlIdSchema.optional(),
    /** The 13 requirements (docs/api.md#compliance-state-the-13-requirements) this control belongs to. */
    requirements: z.array(z.string()),
    /** How HCS verifies the control; empty when nothing HCS runs or reads evidences it. */
    verified_by: z.array(VerificationSchema),
  })
  .meta({ id: "ControlEntry" });

export const ControlsResultSchema = z
  .object({ controls: z.array(ControlEntrySchema) })
  .meta({ id: "ControlsResult", description: "HIPAA Security Rule controls and how HCS verifies each" });

export const REQUIREMENT_STATES = ["met", "partial", "not_met", "unknown"] as const;
export const RequirementStateSchema = z.enum(REQUIREMENT_STATES);

/** What a piece of a requirement's evidence is (hipaa/requirements.ts). */
export const REQUIREMENT_EVIDENCE_KINDS = ["phase", "external_check", "administrative", "audit_log"] as const;

export const RequirementEvidenceSchema = z.object({
  kind: z.enum(REQUIREMENT_EVIDENCE_KINDS),
  /**
   * The phase id, the score category of the external checks, the practice's record (`restore_tests`…), or
   * `evidence_records` for HCS's audit log of the practice's evidence.
   */
  ref: z.string(),
  state: RequirementStateSchema,
  detail: z.string(),
  /** Open findings this evidence holds against the requirement (ids), most severe first. */
  findings: z.array(z.string()),
  assessed_at: z.iso.datetime().nullable(),
});

export const RequirementStatusSchema = z.object({
  number: z.int().min(1).max(13),
  id: z.string(),
  title: z.string(),
  state: RequirementStateSchema,
  controls: z.array(HipaaControlIdSchema),
  evidence: z.array(RequirementEvidenceSchema),
  last_verified: z.iso.datetime().nullable(),
});

export const ComplianceStateSchema = z
  .object({
    npi: NpiSchema,
    as_of: z.iso.datetime(),
    summary: z.object({ met: z.int(), partial: z.int(), not_met: z.int(), unknown: z.int() }),
    requirements: z.array(RequirementStatusSchema).length(13),
  })
  .meta({ id: "ComplianceState", description: "The 13 requirements: met, partial, not met or unknown, with evidence" });
export type ComplianceState = z.infer<typeof ComplianceStateSchema>;

/** A record behind a piece of evidence (a scanner upload, an external scan) with the audit event that logged it. */
export const EvidenceRecordSchema = z.object({
  kind: z.enum(["scanner_upload", "external_scan"]),
  /** `scan:<scan id>` or `job:<job id>`. */
  ref: z.string(),
  /** The scanner host or the domain it examined. */
  subject: z.string(),
  assessed_at: z.iso.datetime(),
  audit: z.object({
    /**
     * `proved`: the event and its inclusion proof to a signed checkpoint; `pending`: logged, not yet covered by a
     * checkpoint; `not_logged`: made before such events were logged (external scans completed before this release).
     */
    state: z.enum(["proved", "pending", "not_logged"]),
    event_id: z.int().positive().nullable(),
    proof: AuditProofBundleSchema.nullable(),
  }),
});
export type EvidenceRecord = z.infer<typeof EvidenceRecordSchema>;

export const EvidenceQuerySchema = z.strictObject({
  npi: NpiSchema,
  /** One requirement (1–13); all when absent. */
  requirement: z.coerce.number().int().min(1).max(13).optional(),
  /** Only records assessed at or after this time. */
  since: z.iso.datetime().optional(),
});

export const EvidenceReportSchema = z
  .object({
    npi: NpiSchema,
    as_of: z.iso.datetime(),
    requirements: z.array(
      RequirementStatusSchema.extend({
        evidence: z.array(RequirementEvidenceSchema.extend({ records: z.array(EvidenceRecordSchema) })),
      }),
    ),
  })
  .meta({
    id: "EvidenceReport",
    description: "Evidence per requirement: the scans behind it, each with its audit event and inclusion proof",
  });
export type EvidenceReport = z.infer<typeof EvidenceReportSchema>;

/** A stored assessment (a grade computed after a scan or an upload), as `asm_<n>`. */
export const AssessmentIdSchema = z.string().regex(/^asm_[1-9][0-9]{0,15}$/, "an assessment id such as asm_42");

export const ComplianceDeltaQuerySchema = z
  .strictObject({
    npi: NpiSchema,
    /** Compare the assessment current at this time with the latest one. */
    since: z.iso.datetime().optional(),
    from: AssessmentIdSchema.optional(),
    to: AssessmentIdSchema.optional(),
  })
  .refine((q) => !(q.since && q.from), { message: "give since or from, not both" })
  .meta({ id: "ComplianceDeltaQuery" });

export const AssessmentPointSchema = z.object({
  assessment_id: AssessmentIdSchema,
  computed_at: z.iso.datetime(),
  scan_date: z.iso.datetime(),
  compliance_score: z.int().min(0).max(100),
  grade: GradeSchema,
  scoring_version: z.string(),
});

export const FindingChangeSchema = z.object({
  id: z.string(),
  source: SourceSchema,
  category: CategoryNameSchema,
  severity: SeveritySchema,
  title: z.string(),
  host: z.string().optional(),
  at: z.iso.datetime(),
});

export const ComplianceDeltaSchema = z
  .object({
    npi: NpiSchema,
    from: AssessmentPointSchema,
    to: AssessmentPointSchema,
    score_change: z.int(),
    grade_change: z.string().nullable(),
    categories: z.record(
      z.string(),
      z.object({ from: z.int().nullable(), to: z.int().nullable(), change: z.int().nullable() }),
    ),
    new_findings: z.array(FindingChangeSchema),
    resolved_findings: z.array(FindingChangeSchema),
  })
  .meta({ id: "ComplianceDelta", description: "What changed between two assessments of a practice" });
export type ComplianceDelta = z.infer<typeof ComplianceDeltaSchema>;
