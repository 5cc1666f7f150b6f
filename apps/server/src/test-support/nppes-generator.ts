import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { withNpiCheckDigit } from "@hcs/protocol";
import { NPPES_COLUMNS } from "../directory/nppes-layout.js";
import { quoted } from "./nppes-files.js";

const at = (c: string) => {
  const i = NPPES_COLUMNS.indexOf(c);
  if (i < 0) throw new Error(`no column ${c}`);
  return i;
};
const COL = {
  npi: at("NPI"),
  type: at("Entity Type Code"),
  org: at("Provider Organization Name (Legal Business Name)"),
  last: at("Provider Last Name (Legal Name)"),
  first: at("Provider First Name"),
  middle: at("Provider Middle Name"),
  credential: at("Provider Credential Text"),
  mail1: at("Provider First Line Business Mailing Address"),
  mailCity: at("Provider Business Mailing Address City Name"),
  mailState: at("Provider Business Mailing Address State Name"),
  mailZip: at("Provider Business Mailing Address Postal Code"),
  mailCountry: at("Provider Business Mailing Address Country Code (If outside U.S.)"),
  mailPhone: at("Provider Business Mailing Address Telephone Number"),
  loc1: at("Provider First Line Business Practice Location Address"),
  loc2: at("Provider Second Line Business Practice Location Address"),
  locCity: at("Provider Business Practice Location Address City Name"),
  locState: at("Provider Business Practice Location Address State Name"),
  locZip: at("Provider Business Practice Location Address Postal Code"),
  locCountry: at("Provider Business Practice Location Address Country Code (If outside U.S.)"),
  locPhone: at("Provider Business Practice Location Address Telephone Number"),
  enumerated: at("Provider Enumeration Date"),
  updated: at("Last Update Date"),
  deactivated: at("NPI Deactivation Date"),
  reason: at("NPI Deactivation Reason Code"),
  sex: at("Provider Sex Code"),
  aoLast: at("Authorized Official Last Name"),
  aoFirst: at("Authorized Official First Name"),
  aoTitle: at("Authorized Official Title or Position"),
  aoPhone: at("Authorized Official Telephone Number"),
  tax1: at("Healthcare Provider Taxonomy Code_1"),
  lic1: at("Provider License Number_1"),
  licState1: at("Provider License Number State Code_1"),
  switch1: at("Healthcare Provider Primary Taxonomy Switch_1"),
  tax2: at("Healthcare Provider Taxonomy Code_2"),
  switch2: at("Healthcare Provider Primary Taxonomy Switch_2"),
  other1: at("Other Provider Identifier_1"),
  otherType1: at("Other Provider Identifier Type Code_1"),
  otherState1: at("Other Provider Identifier State_1"),
  sole: at("Is Sole Proprietor"),
  subpart: at("Is Organization Subpart"),
  certified: at("Certification Date"),
};

const FIRST = ["MARIA", "JAMES", "LINDA", "ROBERT", "PATRICIA", "DAVID", "JENNIFER", "MICHAEL", "SUSAN", "WILLIAM"];
const LAST = ["NGUYEN", "SMITH", "GARCIA", "JOHNSON", "PATEL", "BROWN", "KIM", "DAVIS", "LOPEZ", "WILSON"];
const STREETS = ["MAIN ST", "OAK AVE", "PARK BLVD", "MEDICAL CENTER DR", "RIVER RD", "MAPLE LN"];
const CITIES: readonly [string, string, string][] = [
  ["COLUMBUS", "OH", "432151234"],
  ["ATLANTA", "GA", "303421985"],
  ["DENVER", "CO", "802021120"],
  ["PORTLAND", "OR", "972051400"],
  ["AUSTIN", "TX", "787011234"],
];
const TAXONOMIES = ["207Q00000X", "208D00000X", "363LF0000X", "122300000X", "261QP2300X", "207R00000X"];
const CREDENTIALS = ["M.D.", "D.O.", "NP", "DDS", "PA-C", ""];

/**
 * The `i`-th generated record in the `npidata_pfile` layout: invented names and addresses (never a real record),
 * filled like the real file — a tenth organizations with an authorized official, one in fifty deactivated (published
 * bare), mailing and practice addresses, telephone numbers, taxonomy slots with licence numbers, an identifier — so a
 * record is about as long as the real file's (~1.1 KB: 330 quoted fields, mostly empty).
 */
export function generatedNppesRow(i: number): string[] {
  const row: string[] = new Array(NPPES_COLUMNS.length).fill("");
  const npi = withNpiCheckDigit(String(100_000_000 + i));
  row[COL.npi] = npi;
  if (i % 50 === 49) {
    row[COL.deactivated] = "05/01/2023";
    row[COL.reason] = "DT";
    return row;
  }
  const org = i % 10 === 0;
  const [city, state, zip] = CITIES[i % CITIES.length]!;
  const street = `${100 + (i % 9_000)} ${STREETS[i % STREETS.length]}`;
  row[COL.type] = org ? "2" : "1";
  if (org) {
    row[COL.org] = `${LAST[i % LAST.length]} ${city} FAMILY HEALTH ${i} LLC`;
    row[COL.aoLast] = LAST[(i >> 3) % LAST.length]!;
    row[COL.aoFirst] = FIRST[(i >> 2) % FIRST.length]!;
    row[COL.aoTitle] = "PRACTICE MANAGER";
    row[COL.aoPhone] = "6145550100";
    row[COL.subpart] = "N";
  } else {
    row[COL.last] = LAST[i % LAST.length]!;
    row[COL.first] = FIRST[(i >> 1) % FIRST.length]!;
    row[COL.middle] = "A";
    row[COL.credential] = CREDENTIALS[i % CREDENTIALS.length]!;
    row[COL.sex] = i % 2 ? "F" : "M";
    row[COL.sole] = "N";
  }
  row[COL.mail1] = `PO BOX ${1000 + (i % 8_000)}`;
  row[COL.mailCity] = city;
  row[COL.mailState] = state;
  row[COL.mailZip] = zip;
  row[COL.mailCountry] = "US";
  row[COL.mailPhone] = "6145550123";
  row[COL.loc1] = street;
  row[COL.loc2] = i % 3 === 0 ? `STE ${100 + (i % 400)}` : "";
  row[COL.locCity] = city;
  row[COL.locState] = state;
  row[COL.locZip] = zip;
  row[COL.locCountry] = "US";
  row[COL.locPhone] = "6145550199";
  row[COL.enumerated] = "05/23/2005";
  row[COL.updated] = "07/08/2024";
  row[COL.tax1] = TAXONOMIES[i % TAXONOMIES.length]!;
  row[COL.lic1] = `L${(i * 7919) % 1_000_000}`;
  row[COL.licState1] = state;
  row[COL.switch1] = "Y";
  if (i % 4 === 0) {
    row[COL.tax2] = TAXONOMIES[(i + 1) % TAXONOMIES.length]!;
    row[COL.switch2] = "N";
  }
  row[COL.other1] = `${(i * 104_729) % 10_000_000}`;
  row[COL.otherType1] = "05";
  row[COL.otherState1] = state;
  row[COL.certified] = "07/08/2024";
  return row;
}

/** The CSV line (CRLF-terminated) of a record. */
export const nppesLine = (row: readonly string[]) => `${row.map(quoted).join(",")}\r\n`;

/** Writes a generated `npidata_pfile` of `count` records to `path` (streamed: any size). */
export async function writeGeneratedNppesFile(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  out.write(nppesLine(NPPES_COLUMNS));
  const LINES_PER_WRITE = 500;
  for (let i = 0; i < count; i += LINES_PER_WRITE) {
    let text = "";
    for (let j = i; j < Math.min(count, i + LINES_PER_WRITE); j++) text += nppesLine(generatedNppesRow(j));
    if (!out.write(text)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}
