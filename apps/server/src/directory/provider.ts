import { isValidNpi } from "@hcs/protocol";

/** A postal address of a practice location, as the directory keeps it. */
export interface DirectoryAddress {
  readonly line1: string | null;
  readonly line2: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly postal_code: string | null;
  readonly country_code: string | null;
}

export interface DirectoryTaxonomy {
  readonly code: string;
  readonly primary: boolean;
}

/**
 * One NPI as the directory keeps it, whichever publication it came from (the monthly CSV or the registry API's
 * JSON): the practice's name, locations and taxonomies, an organization's authorized official's name, and its
 * dates. Nothing else of the NPPES record (docs/security.md, "The NPPES directory").
 */
export interface DirectoryProvider {
  readonly npi: string;
  /** 1 individual (NPI-1), 2 organization (NPI-2); null for a deactivated NPI published without its details. */
  readonly entity_type: 1 | 2 | null;
  readonly name: string | null;
  readonly location: DirectoryAddress;
  readonly taxonomies: readonly DirectoryTaxonomy[];
  /** Secondary practice locations (the registry API's `practiceLocations`). */
  readonly practice_locations: readonly DirectoryAddress[];
  readonly official_first_name: string | null;
  readonly official_last_name: string | null;
  readonly enumerated_on: string | null;
  readonly updated_on: string | null;
  readonly deactivated_on: string | null;
  readonly reactivated_on: string | null;
}

/** Why a record was refused: the column (or JSON field) and what is wrong with it. */
export interface RecordRefusal {
  readonly field: string;
  readonly reason: string;
}

export type ProviderParse =
  | { readonly ok: true; readonly provider: DirectoryProvider }
  | { readonly ok: false; readonly refusal: RecordRefusal };

/** Longest text kept from any field (NPPES' own limits are shorter): longer is a broken or hostile file. */
export const MAX_FIELD_CHARS = 300;

/** NUCC taxonomy codes: ten characters, digits and capitals (`207Q00000X`). */
export const TAXONOMY_CODE = /^[0-9A-Z]{9}[0-9A-Z]$/;

/** Thrown inside a parser to refuse the record; caught by the parser's caller. */
export class Refused extends Error {
  constructor(readonly refusal: RecordRefusal) {
    super(`${refusal.field}: ${refusal.reason}`);
  }
}

/** A trimmed value, null when blank; refused when longer than any real field. */
export function text(value: string | null | undefined, field: string): string | null {
  if (value === undefined || value === null) return null;
  const t = value.trim();
  if (t === "") return null;
  if (t.length > MAX_FIELD_CHARS) throw new Refused({ field, reason: `longer than ${MAX_FIELD_CHARS} characters` });
  return t;
}

export function npiOf(value: string | undefined, field: string): string {
  const npi = (value ?? "").trim();
  if (!isValidNpi(npi)) throw new Refused({ field, reason: `"${npi.slice(0, 20)}" is not a valid NPI` });
  return npi;
}

const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A date as YYYY-MM-DD, from the CSV's MM/DD/YYYY or the API's YYYY-MM-DD; null when blank. */
export function dateOf(value: string | null | undefined, field: string): string | null {
  const t = text(value, field);
  if (t === null) return null;
  const us = US_DATE.exec(t);
  const iso = us ? `${us[3]}-${us[1]}-${us[2]}` : ISO_DATE.test(t) ? t : null;
  if (
    iso === null ||
    Number.isNaN(Date.parse(`${iso}T00:00:00Z`)) ||
    new Date(`${iso}T00:00:00Z`).toISOString().slice(0, 10) !== iso
  )
    throw new Refused({ field, reason: `"${t.slice(0, 20)}" is not a date (MM/DD/YYYY)` });
  return iso;
}

/** An individual's name as the name of their practice: "FIRST LAST, CREDENTIAL". */
export function individualName(first: string | null, last: string | null, credential: string | null): string | null {
  const name = [first, last].filter(Boolean).join(" ");
  if (!name) return null;
  return credential ? `${name}, ${credential}` : name;
}

/**
 * Whether the NPI is deactivated now: it has a deactivation date and no reactivation after it (CMS keeps the old
 * deactivation date on a reactivated record).
 */
export function isDeactivated(p: Pick<DirectoryProvider, "deactivated_on" | "reactivated_on">): boolean {
  return p.deactivated_on !== null && !(p.reactivated_on !== null && p.reactivated_on >= p.deactivated_on);
}

/** Runs a record parser, turning its refusal into a value. */
export function parsed(build: () => DirectoryProvider): ProviderParse {
  try {
    return { ok: true, provider: build() };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, refusal: err.refusal };
    throw err;
  }
}
