import { z } from "zod";
import { NpiSchema } from "./npi.js";

/** An entity's name as the HHS breach portal lists it (a practice, a vendor). */
const EntityNameSchema = z.string().trim().min(2).max(200);
/** A US state or territory as the portal writes it: two letters (any case in, upper case out). */
const StateCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, "a two-letter state code");

/** hipaa.breach input: a registered practice by NPI, or any entity by name and state. */
export const BreachQuerySchema = z
  .strictObject({
    npi: NpiSchema.optional(),
    name: EntityNameSchema.optional(),
    state: StateCodeSchema.optional(),
  })
  .refine((i) => i.npi !== undefined || (i.name !== undefined && i.state !== undefined), {
    message: "give npi, or name and state",
  })
  .meta({ id: "BreachQuery" });

/** `GET /v1/a2a/breach?name=…&state=…`: hipaa.breach for an entity not registered here (both fields required). */
export const BreachByNameQuerySchema = z
  .strictObject({ name: EntityNameSchema, state: StateCodeSchema })
  .meta({ id: "BreachByNameQuery" });

export const HhsBreachRecordSchema = z
  .object({
    entity_name: z.string(),
    state: z.string().nullable(),
    entity_type: z.string().nullable(),
    individuals_affected: z.int().nullable(),
    submitted_on: z.iso.date(),
    breach_types: z.array(z.string()),
    locations: z.array(z.string()),
    business_associate_present: z.boolean().nullable(),
    description: z.string().nullable(),
  })
  .meta({ id: "HhsBreachRecord", description: "A breach of 500+ records as the HHS OCR breach portal lists it" });

export const BREACH_MATCH_BASES = ["identical_name", "normalized_name", "dba_name"] as const;

export const BreachMatchSchema = z.object({
  /** 0–1: how sure the record is the entity's (docs/intelligence.md). */
  confidence: z.number().min(0).max(1),
  basis: z.enum(BREACH_MATCH_BASES),
  /** False when the practice's state is unknown and the record matched by name in another state's list. */
  same_state: z.boolean(),
  record: HhsBreachRecordSchema,
});

export const BreachDatasetSchema = z.object({
  records: z.int(),
  newest_submission: z.iso.date().nullable(),
  imported_at: z.iso.datetime().nullable(),
  source: z.string().nullable(),
});

export const BreachCheckSchema = z
  .object({
    query: z.object({ npi: z.string().nullable(), name: z.string(), state: z.string().nullable() }),
    matches: z.array(BreachMatchSchema),
    /** The practice's own breach records — only for the account that owns it; null otherwise. */
    own_incidents: z
      .array(
        z.object({
          id: z.string(),
          source: z.string(),
          reported_at: z.string(),
          individuals_affected: z.int().nullable(),
        }),
      )
      .nullable(),
    dataset: BreachDatasetSchema,
  })
  .meta({ id: "BreachCheck", description: "HHS OCR breach-portal matches for a practice, with confidence" });
export type BreachCheck = z.infer<typeof BreachCheckSchema>;

export const ThreatMatchSchema = z.object({
  cve: z.string(),
  vulnerability: z.string(),
  kev_vendor: z.string(),
  kev_product: z.string(),
  software: z.string(),
  version: z.string(),
  /** Where it was seen: `host:<name>` (a scanner) or `site:<host>` (a public server's headers). */
  seen_on: z.string(),
  /** affected: the version lies in the range the entry states; unknown: the entry states none. */
  version_match: z.enum(["affected", "unknown"]),
  affected_versions: z.array(z.string()),
  date_added: z.iso.date(),
  due_date: z.iso.date(),
  known_ransomware_use: z.boolean(),
  fix: z.string(),
});

export const SectorCountSchema = z.object({ name: z.string(), count: z.int() });

export const ThreatReportSchema = z
  .object({
    npi: z.string(),
    practice_name: z.string(),
    inventory: z.object({ hosts: z.int(), software: z.int(), disclosed_by_public_servers: z.int() }),
    matches: z.array(ThreatMatchSchema),
    /** Matches left out beyond the first 200 (product-only ones first). */
    truncated: z.int(),
    summary: z.object({
      version_confirmed: z.int(),
      product_only: z.int(),
      known_ransomware_use: z.int(),
      past_due: z.int(),
    }),
    sector: z.object({
      entity_type: z.string(),
      state: z.string().nullable(),
      from: z.iso.date().nullable(),
      to: z.iso.date().nullable(),
      breaches: z.int(),
      breach_types: z.array(SectorCountSchema),
      locations: z.array(SectorCountSchema),
    }),
    kev_catalog: z.object({ version: z.string(), imported_at: z.iso.datetime() }).nullable(),
  })
  .meta({
    id: "ThreatReport",
    description: "CISA KEV entries matching a practice's inventory, and its sector's breaches",
  });
export type ThreatReport = z.infer<typeof ThreatReportSchema>;

export const SIZE_BANDS = ["small", "medium", "large"] as const;

export const BreachProbabilityQuerySchema = z
  .strictObject({
    npi: NpiSchema,
    /** Patient records the practice holds: small < 5,000, medium 5,000–50,000, large > 50,000 (default small). */
    size_band: z.enum(SIZE_BANDS).optional(),
  })
  .meta({ id: "BreachProbabilityQuery" });

export const BreachProbabilitySchema = z
  .object({
    npi: z.string(),
    model_version: z.string(),
    horizon_months: z.literal(12),
    probability: z.number().min(0).max(1),
    band: z.enum(["low", "moderate", "elevated", "high"]),
    base_rate: z.object({
      probability: z.number(),
      entity_type: z.string(),
      size_band: z.enum(SIZE_BANDS),
      size_multiplier: z.number(),
      reports_per_year: z.number(),
      assumed_population: z.int(),
      window: z.object({ from: z.iso.date().nullable(), to: z.iso.date().nullable() }),
      source: z.string(),
    }),
    factors: z.array(
      z.object({
        id: z.string(),
        label: z.string(),
        present: z.boolean(),
        multiplier: z.number(),
        /** How much lower the probability would be without this factor (0 when absent). */
        contribution: z.number(),
        rationale: z.string(),
        evidence: z.array(z.object({ finding_id: z.string(), title: z.string() })),
      }),
    ),
    not_assessed: z.array(z.string()),
    caveat: z.string(),
  })
  .meta({ id: "BreachProbability", description: "A documented, versioned estimate — not an actuarial model" });
export type BreachProbability = z.infer<typeof BreachProbabilitySchema>;
