import type { Generated } from "kysely";

// The NPPES directory's tables (migration 031, docs/onboarding.md#the-directory). Times are ISO-8601 UTC text, dates
// YYYY-MM-DD, as everywhere else.

/**
 * One NPI as CMS publishes it, reduced to what HCS uses: who it is (an organization's legal name, or an individual's
 * name — an individual's name is the name of their practice), where it practises, what it does, and whether it is
 * still active. Nothing else of the record is kept (no EIN, no licence numbers, no other identifiers, no sex, no
 * telephone numbers): docs/security.md, "The NPPES directory".
 */
export interface NppesProvidersTable {
  npi: string;
  /** 1: an individual (NPI-1); 2: an organization (NPI-2). Null for a deactivated NPI, which CMS publishes blank. */
  entity_type: number | null;
  /** The organization's legal business name, or the individual's "FIRST MIDDLE LAST, CREDENTIAL"; null when blank. */
  name: string | null;
  /** The primary practice location. */
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  /** As published: a two-letter code, or free text for some foreign addresses ("GEORGIA"). */
  state: string | null;
  postal_code: string | null;
  country_code: string | null;
  /** The primary taxonomy (NUCC code); its description is read from nppes_taxonomies. */
  taxonomy_code: string | null;
  /** Every taxonomy of the record, as JSON `[{code, primary}]`. */
  taxonomies: string;
  /** Secondary practice locations (the registry API's `practiceLocations`), as JSON; "[]" when none are known. */
  practice_locations: string;
  /** An organization's authorized official: first and last name only. */
  official_first_name: string | null;
  official_last_name: string | null;
  enumerated_on: string | null;
  updated_on: string | null;
  deactivated_on: string | null;
  reactivated_on: string | null;
  /** `nppes_csv` or `registry_api`: which publication the row came from last. */
  source: string;
  import_id: number;
}

/** A taxonomy code's description: from the registry API's records (`desc`) or the NUCC code set. */
export interface NppesTaxonomiesTable {
  code: string;
  description: string;
}

/** One endpoint of the NPPES endpoint file, with the domain it names (the candidate domains of a claim). */
export interface NppesEndpointsTable {
  npi: string;
  /** DIRECT, FHIR, REST, SOAP, WEB, OTHERS, as published. */
  endpoint_type: string;
  endpoint: string;
  /** The host the endpoint names (a Direct address's domain, a URL's host), lower-case; null when it names none. */
  domain: string | null;
  /** The endpoint belongs to an affiliated organization (the file's Affiliation = Y), not to the NPI itself. */
  affiliated: number;
  import_id: number;
}

/**
 * One import of a directory file: where it stands, so that an import stopped by a crash resumes from the last
 * committed record instead of starting over, and a finished file imported again changes nothing.
 */
export interface DirectoryImportsTable {
  id: Generated<number>;
  /** nppes | nppes_endpoints | nppes_registry_json | nucc_taxonomy */
  kind: string;
  /** The file as the operator named it. */
  source: string;
  /** Size and SHA-256 of the file's first MiB: the same file, resumed, is recognised by them. */
  file_size: number;
  fingerprint: string;
  /** The byte offset after the last committed record, and the records committed so far. */
  committed_bytes: number;
  records: number;
  /** Records refused (the reasons of the first few are in `detail`). */
  skipped: number;
  status: "running" | "completed";
  started_at: string;
  updated_at: string;
  completed_at: string | null;
  /** JSON: the first refused records' numbers and reasons, counts by kind. */
  detail: string;
}

/** The states of a claim: only `proved` makes its account the practice's owner (docs/onboarding.md). */
export type ClaimStatus = "pending" | "proved" | "contested" | "lapsed" | "superseded" | "revoked";

/** A claim of a practice (NPI) by an account, for a domain, with the challenge that proves control of it. */
export interface PracticeClaimsTable {
  id: string;
  npi: string;
  account_id: string;
  domain: string;
  /** The challenge value the claimant publishes; not a secret (it is public in DNS or on the site once published). */
  token: string;
  status: ClaimStatus;
  /** How it was last proved: dns_txt, well_known or operator. */
  method: string | null;
  created_at: string;
  proved_at: string | null;
  /** The last check that found the proof. */
  last_checked_at: string | null;
  /** Since when re-checks have not found it (a proved claim lapses after the grace period). */
  failing_since: string | null;
  ended_at: string | null;
  /** JSON: the last check's outcome for each method. */
  last_check: string | null;
  /** The operator's reason (override, revocation). */
  note: string | null;
}
