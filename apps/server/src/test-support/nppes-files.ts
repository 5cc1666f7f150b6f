import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { NPPES_COLUMNS, NPPES_ENDPOINT_COLUMNS, NUCC_COLUMNS } from "../directory/nppes-layout.js";
import { SHARED_DATA_DIR, sharedDataFile } from "./shared-data.js";

/** A registry API record as recorded in ../shared/data/npi-registry (the fields the files below are built from). */
export interface RegistryRecord {
  readonly number: number;
  readonly enumeration_type: "NPI-1" | "NPI-2";
  readonly basic: Record<string, string | undefined>;
  readonly addresses: readonly Record<string, string | undefined>[];
  readonly practiceLocations?: readonly Record<string, string | undefined>[];
  readonly taxonomies: readonly {
    code: string;
    desc?: string;
    primary?: boolean;
    state?: string;
    license?: string;
    taxonomy_group?: string;
  }[];
  readonly identifiers?: readonly Record<string, string | undefined>[];
}

/** The recorded NPI Registry answers, or null (with a printed reason) where ../shared/data is absent. */
export function registryAnswerFiles(): string[] | null {
  const probe = sharedDataFile("npi-registry/api-8bdc8b.json", "NPI Registry API answers");
  if (!probe) return null;
  const dir = join(SHARED_DATA_DIR, "npi-registry");
  return readdirSync(dir)
    .filter((f) => /^api-[0-9a-f]+\.json$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

/** Every distinct record of the recorded answers (by NPI, first seen wins). */
export function registryRecords(files: readonly string[]): RegistryRecord[] {
  const byNpi = new Map<number, RegistryRecord>();
  for (const f of files)
    for (const r of (JSON.parse(readFileSync(f, "utf8")) as { results: RegistryRecord[] }).results)
      if (!byNpi.has(r.number)) byNpi.set(r.number, r);
  return [...byNpi.values()];
}

/** YYYY-MM-DD as the data file writes dates: MM/DD/YYYY. */
const usDate = (iso: string | undefined) => (iso ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` : "");

/** A CSV field as CMS writes every field: in double quotes, inner quotes doubled. */
export const quoted = (v: string) => `"${v.replaceAll('"', '""')}"`;

/**
 * One record in the `npidata_pfile` layout (all 330 columns, documented order), filled from a registry API record
 * the way CMS fills both from the same NPPES data: the mailing and practice-location addresses, telephone numbers,
 * dates as MM/DD/YYYY, the sex code, taxonomy slots with licence numbers and switches, other identifiers, the
 * authorized official's details. The directory must keep only what it should of all this.
 */
export function nppesRowOf(r: RegistryRecord): string[] {
  const b = r.basic;
  const row = new Map<string, string>();
  const put = (column: string, value: string | undefined) => row.set(column, value ?? "");
  const org = r.enumeration_type === "NPI-2";
  put("NPI", String(r.number));
  put("Entity Type Code", org ? "2" : "1");
  if (org) put("Provider Organization Name (Legal Business Name)", b.organization_name);
  else {
    put("Provider Last Name (Legal Name)", b.last_name);
    put("Provider First Name", b.first_name);
    put("Provider Middle Name", b.middle_name);
    put("Provider Name Prefix Text", b.name_prefix);
    put("Provider Credential Text", b.credential);
    put("Provider Sex Code", b.gender);
    put("Is Sole Proprietor", b.sole_proprietor === "YES" ? "Y" : b.sole_proprietor === "NO" ? "N" : "X");
  }
  const mailing = r.addresses.find((a) => a.address_purpose === "MAILING");
  const location = r.addresses.find((a) => a.address_purpose === "LOCATION");
  const address = (prefix: "Mailing" | "Practice Location", a: Record<string, string | undefined> | undefined) => {
    if (!a) return;
    put(`Provider First Line Business ${prefix} Address`, a.address_1);
    put(`Provider Second Line Business ${prefix} Address`, a.address_2);
    put(`Provider Business ${prefix} Address City Name`, a.city);
    put(`Provider Business ${prefix} Address State Name`, a.state);
    put(`Provider Business ${prefix} Address Postal Code`, a.postal_code);
    put(`Provider Business ${prefix} Address Country Code (If outside U.S.)`, a.country_code);
    put(`Provider Business ${prefix} Address Telephone Number`, a.telephone_number?.replaceAll("-", ""));
    put(`Provider Business ${prefix} Address Fax Number`, a.fax_number?.replaceAll("-", ""));
  };
  address("Mailing", mailing);
  address("Practice Location", location);
  put("Provider Enumeration Date", usDate(b.enumeration_date));
  put("Last Update Date", usDate(b.last_updated));
  put("NPI Deactivation Date", usDate(b.deactivation_date));
  put("NPI Reactivation Date", usDate(b.reactivation_date));
  if (org) {
    put("Authorized Official Last Name", b.authorized_official_last_name);
    put("Authorized Official First Name", b.authorized_official_first_name);
    put("Authorized Official Middle Name", b.authorized_official_middle_name);
    put("Authorized Official Title or Position", b.authorized_official_title_or_position);
    put("Authorized Official Telephone Number", b.authorized_official_telephone_number?.replaceAll("-", ""));
    put("Authorized Official Credential Text", b.authorized_official_credential);
    put("Is Organization Subpart", b.organizational_subpart === "YES" ? "Y" : "N");
  }
  r.taxonomies.slice(0, 15).forEach((t, i) => {
    put(`Healthcare Provider Taxonomy Code_${i + 1}`, t.code);
    put(`Provider License Number_${i + 1}`, t.license);
    put(`Provider License Number State Code_${i + 1}`, t.state);
    put(`Healthcare Provider Primary Taxonomy Switch_${i + 1}`, t.primary ? "Y" : "N");
    put(`Healthcare Provider Taxonomy Group_${i + 1}`, t.taxonomy_group);
  });
  (r.identifiers ?? []).slice(0, 50).forEach((id, i) => {
    put(`Other Provider Identifier_${i + 1}`, id.identifier);
    put(`Other Provider Identifier Type Code_${i + 1}`, id.code);
    put(`Other Provider Identifier State_${i + 1}`, id.state);
    put(`Other Provider Identifier Issuer_${i + 1}`, id.issuer);
  });
  return NPPES_COLUMNS.map((c) => row.get(c) ?? "");
}

/** A whole `npidata_pfile` text: the header and one record per row, every field quoted, CRLF line ends. */
export function nppesCsv(rows: readonly (readonly string[])[]): string {
  return [NPPES_COLUMNS, ...rows].map((r) => r.map(quoted).join(",")).join("\r\n") + "\r\n";
}

/** A record of a deactivated NPI as the data file publishes it: the NPI and its deactivation date, nothing else. */
export function deactivatedRow(npi: string, deactivatedIso: string): string[] {
  return NPPES_COLUMNS.map((c) =>
    c === "NPI"
      ? npi
      : c === "NPI Deactivation Date"
        ? usDate(deactivatedIso)
        : c === "NPI Deactivation Reason Code"
          ? "DT"
          : "",
  );
}

export interface EndpointSpec {
  readonly npi: string;
  readonly type: "DIRECT" | "FHIR" | "REST" | "SOAP" | "WEB" | "OTHERS";
  readonly endpoint: string;
  readonly affiliated?: boolean;
  readonly affiliationName?: string;
}

const ENDPOINT_TYPE_DESCRIPTIONS = {
  DIRECT: "Direct Messaging Address",
  FHIR: "FHIR URL",
  REST: "REST",
  SOAP: "SOAP",
  WEB: "Web URL",
  OTHERS: "Others",
} as const;

/** A whole `endpoint_pfile` text in its documented 19-column layout. */
export function endpointCsv(endpoints: readonly EndpointSpec[]): string {
  const rows = endpoints.map((e) => {
    const row = new Map<string, string>([
      ["NPI", e.npi],
      ["Endpoint Type", e.type],
      ["Endpoint Type Description", ENDPOINT_TYPE_DESCRIPTIONS[e.type]],
      ["Endpoint", e.endpoint],
      ["Affiliation", e.affiliated ? "Y" : "N"],
      ["Affiliation Legal Business Name", e.affiliationName ?? ""],
      ["Use Code", "DIRECT"],
      ["Use Description", "Direct"],
      ["Content Type", "OTHER"],
    ]);
    return NPPES_ENDPOINT_COLUMNS.map((c) => row.get(c) ?? "");
  });
  return [NPPES_ENDPOINT_COLUMNS, ...rows].map((r) => r.map(quoted).join(",")).join("\r\n") + "\r\n";
}

/**
 * A NUCC taxonomy code set in its published layout, built from the registry records' taxonomies: a description
 * "Classification Specialization" is split back at the longest known classification (here: the whole description
 * as the classification, which reads back the same).
 */
export function nuccCsv(records: readonly RegistryRecord[]): string {
  const codes = new Map<string, string>();
  for (const r of records) for (const t of r.taxonomies) if (t.desc) codes.set(t.code, t.desc);
  const rows = [...codes].map(([code, desc]) =>
    NUCC_COLUMNS.map((c) =>
      c === "Code" ? code : c === "Classification" ? desc : c === "Grouping" ? "Providers" : "",
    ),
  );
  return [NUCC_COLUMNS, ...rows].map((r) => r.map(quoted).join(",")).join("\n") + "\n";
}

/**
 * Puts a practice in the directory as an operator's imports would: an NPI Registry API answer for it (an
 * organization, NPI-2) and an endpoint file naming its domain, both imported through the importer.
 */
export async function importDirectoryRecordFor(
  deps: import("../services/deps.js").ServiceDeps,
  p: {
    readonly npi: string;
    readonly name: string;
    readonly state: string;
    readonly domain: string;
    readonly city?: string;
  },
): Promise<void> {
  const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { importDirectoryFile } = await import("../services/directory/import-file.js");
  const dir = mkdtempSync(join(tmpdir(), "hcs-directory-"));
  try {
    const answer = {
      result_count: 1,
      results: [
        {
          enumeration_type: "NPI-2",
          number: Number(p.npi),
          basic: {
            organization_name: p.name,
            authorized_official_first_name: "JORDAN",
            authorized_official_last_name: "REYES",
            enumeration_date: "2012-03-01",
            last_updated: "2024-07-08",
            status: "A",
          },
          addresses: [
            {
              address_purpose: "LOCATION",
              address_1: "200 RIVER ST",
              city: p.city ?? "COLUMBUS",
              state: p.state,
              postal_code: "432151234",
              country_code: "US",
            },
          ],
          practiceLocations: [],
          taxonomies: [{ code: "207X00000X", desc: "Orthopaedic Surgery", primary: true }],
        },
      ],
    };
    writeFileSync(join(dir, "answer.json"), JSON.stringify(answer));
    await importDirectoryFile(deps, "nppes", join(dir, "answer.json"));
    writeFileSync(
      join(dir, "endpoints.csv"),
      endpointCsv([
        { npi: p.npi, type: "DIRECT", endpoint: `records@direct.${p.domain}` },
        { npi: p.npi, type: "WEB", endpoint: `https://www.${p.domain}/` },
      ]),
    );
    await importDirectoryFile(deps, "nppes_endpoints", join(dir, "endpoints.csv"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
