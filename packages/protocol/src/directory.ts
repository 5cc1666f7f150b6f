import { z } from "zod";
import { GradeRecordSchema } from "./grade-record.js";
import { NpiSchema } from "./npi.js";

const isoDate = z.iso.date();
const maybe = z.string().nullable();

export const DirectoryAddressSchema = z
  .object({
    line1: maybe,
    line2: maybe,
    city: maybe,
    /** As CMS publishes it: a two-letter code, or free text for some foreign addresses. */
    state: maybe,
    postal_code: maybe,
    country_code: maybe,
  })
  .meta({ id: "DirectoryAddress", description: "A practice location as the NPPES directory publishes it" });

export const DirectoryTaxonomySchema = z.object({
  code: z.string(),
  /** The NUCC description ("Internal Medicine Cardiovascular Disease"); null when none was imported for the code. */
  description: z.string().nullable(),
  primary: z.boolean(),
});

/** A domain an NPPES endpoint names, offered as a candidate when the practice is claimed. */
export const CandidateDomainSchema = z.object({
  domain: z.string(),
  /** DIRECT (a Direct address's domain), FHIR, REST, SOAP, WEB or OTHERS. */
  endpoint_type: z.string(),
  /** The endpoint is an affiliated organization's (a HISP, a hospital), not the practice's own. */
  affiliated: z.boolean(),
});

export const DIRECTORY_STATUSES = ["active", "deactivated"] as const;

/**
 * One NPI of the NPPES directory as HCS keeps it (docs/onboarding.md#the-directory): the practice's name, practice
 * locations, taxonomies, an organization's authorized official's name, whether it is deactivated, and the domains
 * its endpoints name. No other personal data of the NPPES record is kept.
 */
export const DirectoryEntrySchema = z
  .object({
    npi: NpiSchema,
    /** NPI-1: an individual; NPI-2: an organization; null for a deactivated NPI CMS publishes without details. */
    entity_type: z.enum(["NPI-1", "NPI-2"]).nullable(),
    /** The organization's legal business name, or the individual's "FIRST LAST, CREDENTIAL". */
    name: z.string().nullable(),
    status: z.enum(DIRECTORY_STATUSES),
    /** Enumeration, last update, deactivation and reactivation (a reactivated NPI keeps its old deactivation date). */
    dates: z.object({
      enumerated_on: isoDate.nullable(),
      updated_on: isoDate.nullable(),
      deactivated_on: isoDate.nullable(),
      reactivated_on: isoDate.nullable(),
    }),
    location: DirectoryAddressSchema,
    practice_locations: z.array(DirectoryAddressSchema),
    /** The primary taxonomy. */
    taxonomy: DirectoryTaxonomySchema.nullable(),
    taxonomies: z.array(DirectoryTaxonomySchema),
    authorized_official: z.object({ first_name: z.string().nullable(), last_name: z.string().nullable() }).nullable(),
    candidate_domains: z.array(CandidateDomainSchema),
  })
  .meta({ id: "DirectoryEntry", description: "An NPI as the NPPES directory publishes it (what HCS keeps of it)" });
export type DirectoryEntry = z.infer<typeof DirectoryEntrySchema>;

/**
 * The grade lookup's answer for a valid NPI that is in the directory but has no assessment yet: the directory's
 * name for it and an explicit state, instead of "unknown". Not charged.
 */
export const NotYetAssessedSchema = z
  .object({
    npi: NpiSchema,
    practice_name: z.string().nullable(),
    assessment: z.literal("not_yet_assessed"),
    directory: z.object({
      entity_type: z.enum(["NPI-1", "NPI-2"]).nullable(),
      status: z.enum(DIRECTORY_STATUSES),
      taxonomy: DirectoryTaxonomySchema.nullable(),
      city: z.string().nullable(),
      state: z.string().nullable(),
    }),
  })
  .meta({
    id: "NotYetAssessed",
    description: "A practice in the NPPES directory that HCS has not assessed yet (no grade; not charged)",
  });
export type NotYetAssessed = z.infer<typeof NotYetAssessedSchema>;

/** What the grade lookup answers: the grade record, or the directory's not-yet-assessed answer. */
export const GradeLookupSchema = z.union([GradeRecordSchema, NotYetAssessedSchema]).meta({
  id: "GradeLookup",
  type: "object",
  description: "A practice's grade record, or — for an NPI in the directory with no assessment yet — not_yet_assessed",
});
