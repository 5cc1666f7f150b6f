import { FeedError } from "../intel/feed-error.js";
import {
  NPPES_ENDPOINT_READ,
  NPPES_READ,
  NPPES_TAXONOMY_SLOTS,
  NUCC_READ,
  nppesPrimarySwitchColumn,
  nppesTaxonomyColumn,
} from "./nppes-layout.js";
import {
  type DirectoryTaxonomy,
  dateOf,
  individualName,
  npiOf,
  type ProviderParse,
  parsed,
  Refused,
  TAXONOMY_CODE,
  text,
} from "./provider.js";

/** Where the columns a file is read by sit in its header, and the set of indexes to decode. */
export interface CsvColumns<K extends string> {
  readonly at: Readonly<Record<K, number>>;
  readonly wanted: ReadonlySet<number>;
  /** The header's column count: every record must have as many fields. */
  readonly count: number;
}

/** Finds `names` in a header (exact names, as CMS spells them); a file missing any is refused whole. */
export function columnsOf<K extends string>(
  header: readonly (string | undefined)[],
  names: Readonly<Record<K, string>>,
  what: string,
  extra: readonly string[] = [],
): CsvColumns<K> & { readonly extra: readonly number[] } {
  const position = new Map(header.map((h, i) => [(h ?? "").replace(/^\uFEFF/, "").trim(), i]));
  const missing = [...Object.values<string>(names), ...extra].filter((n) => !position.has(n));
  if (missing.length > 0)
    throw new FeedError(
      "feed_wrong_columns",
      `this is not ${what}: its header lacks ${missing
        .slice(0, 5)
        .map((m) => `"${m}"`)
        .join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}`,
      { row: 1 },
    );
  const at = Object.fromEntries(Object.entries<string>(names).map(([k, n]) => [k, position.get(n)!])) as Record<
    K,
    number
  >;
  const extraAt = extra.map((n) => position.get(n)!);
  return { at, wanted: new Set([...Object.values<number>(at), ...extraAt]), count: header.length, extra: extraAt };
}

export type NppesColumns = CsvColumns<keyof typeof NPPES_READ> & {
  /** Code and primary-switch column of each taxonomy slot. */
  readonly taxonomy: readonly { readonly code: number; readonly primary: number }[];
};

const TAXONOMY_COLUMNS = Array.from({ length: NPPES_TAXONOMY_SLOTS }, (_, i) => [
  nppesTaxonomyColumn(i + 1),
  nppesPrimarySwitchColumn(i + 1),
]).flat();

/** The columns of an `npidata_pfile` header. */
export function nppesColumns(header: readonly (string | undefined)[]): NppesColumns {
  const cols = columnsOf(header, NPPES_READ, "an NPPES data file (npidata_pfile)", TAXONOMY_COLUMNS);
  const taxonomy = Array.from({ length: NPPES_TAXONOMY_SLOTS }, (_, i) => ({
    code: cols.extra[2 * i]!,
    primary: cols.extra[2 * i + 1]!,
  }));
  return { ...cols, taxonomy };
}

/** One `npidata_pfile` record as a directory provider, or why it was refused. */
export function providerFromNppesCsv(f: readonly (string | undefined)[], cols: NppesColumns): ProviderParse {
  const { at } = cols;
  return parsed(() => {
    const npi = npiOf(f[at.npi], "NPI");
    const type = (f[at.entityType] ?? "").trim();
    const deactivated_on = dateOf(f[at.deactivated], NPPES_READ.deactivated);
    if (type !== "1" && type !== "2" && !(type === "" && deactivated_on !== null))
      throw new Refused({ field: NPPES_READ.entityType, reason: `"${type.slice(0, 10)}" is not 1 or 2` });
    const taxonomies: DirectoryTaxonomy[] = [];
    for (const slot of cols.taxonomy) {
      const code = text(f[slot.code], "Healthcare Provider Taxonomy Code")?.toUpperCase() ?? null;
      if (code === null) continue;
      if (!TAXONOMY_CODE.test(code))
        throw new Refused({ field: "Healthcare Provider Taxonomy Code", reason: `"${code}" is not a taxonomy code` });
      taxonomies.push({ code, primary: (f[slot.primary] ?? "").trim().toUpperCase() === "Y" });
    }
    const entity_type = type === "1" ? 1 : type === "2" ? 2 : null;
    return {
      npi,
      entity_type,
      name:
        entity_type === 2
          ? text(f[at.organizationName], NPPES_READ.organizationName)
          : individualName(
              text(f[at.firstName], NPPES_READ.firstName),
              text(f[at.lastName], NPPES_READ.lastName),
              text(f[at.credential], NPPES_READ.credential),
            ),
      location: {
        line1: text(f[at.line1], NPPES_READ.line1),
        line2: text(f[at.line2], NPPES_READ.line2),
        city: text(f[at.city], NPPES_READ.city),
        state: text(f[at.state], NPPES_READ.state),
        postal_code: text(f[at.postalCode], NPPES_READ.postalCode),
        country_code: text(f[at.countryCode], NPPES_READ.countryCode),
      },
      taxonomies,
      practice_locations: [],
      official_first_name: entity_type === 2 ? text(f[at.officialFirstName], NPPES_READ.officialFirstName) : null,
      official_last_name: entity_type === 2 ? text(f[at.officialLastName], NPPES_READ.officialLastName) : null,
      enumerated_on: dateOf(f[at.enumerated], NPPES_READ.enumerated),
      updated_on: dateOf(f[at.updated], NPPES_READ.updated),
      deactivated_on,
      reactivated_on: dateOf(f[at.reactivated], NPPES_READ.reactivated),
    };
  });
}

/** An endpoint of the NPPES endpoint file, with the domain it names. */
export interface DirectoryEndpoint {
  readonly npi: string;
  readonly endpoint_type: string;
  readonly endpoint: string;
  readonly domain: string | null;
  readonly affiliated: boolean;
}

export type EndpointParse =
  | { readonly ok: true; readonly endpoint: DirectoryEndpoint }
  | { readonly ok: false; readonly refusal: { readonly field: string; readonly reason: string } };

export type EndpointColumns = CsvColumns<keyof typeof NPPES_ENDPOINT_READ>;

export function endpointColumns(header: readonly (string | undefined)[]): EndpointColumns {
  return columnsOf(header, NPPES_ENDPOINT_READ, "an NPPES endpoint file (endpoint_pfile)");
}

const ENDPOINT_TYPES = new Set(["DIRECT", "FHIR", "REST", "SOAP", "WEB", "OTHERS"]);
const HOST = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/**
 * The domain an endpoint names: a Direct address's (`user@direct.clinic.example`), a URL's host, or a bare host
 * name; null when it names none a practice could prove (an IP address, a mangled value).
 */
export function endpointDomain(endpoint: string): string | null {
  const value = endpoint.trim();
  let host: string | null = null;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    try {
      host = new URL(value).hostname;
    } catch {
      host = null;
    }
  } else if (value.includes("@")) host = value.slice(value.lastIndexOf("@") + 1);
  else host = value.split(/[/:?#]/)[0] ?? null;
  const d = host?.toLowerCase().replace(/\.$/, "") ?? null;
  return d && HOST.test(d) ? d : null;
}

export function endpointFromCsv(f: readonly (string | undefined)[], cols: EndpointColumns): EndpointParse {
  try {
    const npi = npiOf(f[cols.at.npi], "NPI");
    const type = (text(f[cols.at.type], "Endpoint Type") ?? "").toUpperCase();
    if (!ENDPOINT_TYPES.has(type))
      throw new Refused({ field: "Endpoint Type", reason: `"${type.slice(0, 20)}" is not an endpoint type` });
    const endpoint = text(f[cols.at.endpoint], "Endpoint");
    if (endpoint === null) throw new Refused({ field: "Endpoint", reason: "blank" });
    return {
      ok: true,
      endpoint: {
        npi,
        endpoint_type: type,
        endpoint,
        domain: endpointDomain(endpoint),
        affiliated: (f[cols.at.affiliation] ?? "").trim().toUpperCase() === "Y",
      },
    };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, refusal: err.refusal };
    throw err;
  }
}

/** A NUCC code set row: its code and the description the registry API gives it ("Classification Specialization"). */
export type TaxonomyParse =
  | { readonly ok: true; readonly code: string; readonly description: string }
  | { readonly ok: false; readonly refusal: { readonly field: string; readonly reason: string } };

export type NuccColumns = CsvColumns<keyof typeof NUCC_READ>;

export function nuccColumns(header: readonly (string | undefined)[]): NuccColumns {
  return columnsOf(header, NUCC_READ, "the NUCC taxonomy code set (nucc_taxonomy_*.csv)");
}

export function taxonomyFromNucc(f: readonly (string | undefined)[], cols: NuccColumns): TaxonomyParse {
  try {
    const code = (text(f[cols.at.code], "Code") ?? "").toUpperCase();
    if (!TAXONOMY_CODE.test(code)) throw new Refused({ field: "Code", reason: `"${code}" is not a taxonomy code` });
    const classification = text(f[cols.at.classification], "Classification");
    if (classification === null) throw new Refused({ field: "Classification", reason: "blank" });
    const specialization = text(f[cols.at.specialization], "Specialization");
    return { ok: true, code, description: specialization ? `${classification} ${specialization}` : classification };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, refusal: err.refusal };
    throw err;
  }
}
