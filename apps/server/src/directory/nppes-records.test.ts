import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  deactivatedRow,
  nppesCsv,
  nppesRowOf,
  registryAnswerFiles,
  registryRecords,
} from "../test-support/nppes-files.js";
import { CsvByteStream } from "./csv-stream.js";
import { endpointDomain, nppesColumns, providerFromNppesCsv } from "./nppes-csv.js";
import { NPPES_COLUMNS } from "./nppes-layout.js";
import { type DirectoryProvider, isDeactivated, type ProviderParse } from "./provider.js";
import { parseRegistryAnswer } from "./registry-json.js";

const FILES = registryAnswerFiles();

/** Every record of an npidata_pfile text, as the importer reads them. */
function readNppes(text: string): ProviderParse[] {
  const out: ProviderParse[] = [];
  let cols: ReturnType<typeof nppesColumns> | null = null;
  const s = new CsvByteStream({ wanted: null, maxRecordBytes: 1 << 20 });
  const take = (r: { fields: readonly (string | undefined)[]; row: number }) => {
    if (r.row === 1) cols = nppesColumns(r.fields);
    else out.push(providerFromNppesCsv(r.fields, cols!));
  };
  s.push(Buffer.from(text), take);
  s.end(take);
  return out;
}

const ok = (p: ProviderParse): DirectoryProvider => {
  if (!p.ok) throw new Error(`refused: ${JSON.stringify(p.refusal)}`);
  return p.provider;
};

describe.skipIf(!FILES)("NPPES records from the recorded NPI Registry answers", () => {
  const records = registryRecords(FILES ?? []);

  it("reads every record of the API answers: individuals and organizations, with taxonomies and descriptions", () => {
    const parsed = FILES!.flatMap((f) => parseRegistryAnswer(JSON.parse(readFileSync(f, "utf8"))).records);
    expect(parsed.every((p) => p.ok)).toBe(true);
    // 49 records in the answers (the README's count), 40 distinct NPIs: some answers repeat records.
    expect(parsed).toHaveLength(49);
    expect(records).toHaveLength(40);
    const answer = parseRegistryAnswer(
      JSON.parse(readFileSync(FILES!.find((f) => f.endsWith("api-8bdc8b.json"))!, "utf8")),
    );
    expect(ok(answer.records[0]!)).toMatchObject({
      npi: "1568946812",
      entity_type: 2,
      name: "CSP ANESTHESIA LLC",
      location: { line1: "403 PERMIAN WAY STE D", city: "VILLA RICA", state: "GA", postal_code: "301803226" },
      taxonomies: [{ code: "207L00000X", primary: true }],
      practice_locations: [{ line1: "5505 ROSWELL RD STE 350B", city: "ATLANTA", state: "GA" }],
      official_first_name: "TIMOTHY",
      official_last_name: "BARTON",
      enumerated_on: "2018-09-22",
    });
    expect(answer.taxonomies.get("207L00000X")).toBe("Anesthesiology");
  });

  it("reads the same providers from a data file in the documented 330-column layout as from the API's JSON", () => {
    const fromJson = new Map(
      FILES!
        .flatMap((f) => parseRegistryAnswer(JSON.parse(readFileSync(f, "utf8"))).records)
        .map((p) => {
          const provider = ok(p);
          return [provider.npi, provider] as const;
        }),
    );
    const text = nppesCsv(records.map(nppesRowOf));
    expect(text.split("\r\n")[0]!.split('","')).toHaveLength(NPPES_COLUMNS.length);
    const fromCsv = readNppes(text).map(ok);
    expect(fromCsv).toHaveLength(records.length);
    for (const p of fromCsv) {
      const j = fromJson.get(p.npi)!;
      // The data file carries secondary practice locations in a file of their own; everything else agrees.
      expect({ ...p, practice_locations: [] }, p.npi).toEqual({ ...j, practice_locations: [] });
    }
    const individual = fromCsv.find((p) => p.npi === "1720377294")!;
    expect(individual).toMatchObject({ entity_type: 1, name: "ELISE HIZA, M.D.", official_first_name: null });
  });

  it("keeps no personal data beyond the practice's name, locations, taxonomies and the official's name", () => {
    const kept = JSON.stringify(readNppes(nppesCsv(records.map(nppesRowOf))).map(ok));
    const elise = records.find((r) => r.number === 1720377294)!;
    // Middle names, telephone numbers, sex, licence numbers, other identifiers: in the file, not in the directory.
    expect(kept).not.toContain(elise.basic.middle_name);
    expect(kept).not.toMatch(/"(gender|sex|telephone|fax|license|ein|middle)/i);
    for (const r of records) {
      for (const a of r.addresses)
        if (a.telephone_number) expect(kept).not.toContain(a.telephone_number.replaceAll("-", ""));
      for (const t of r.taxonomies) if (t.license) expect(kept).not.toContain(`"${t.license}"`);
    }
    const csp = records.find((r) => r.number === 1568946812)!;
    expect(kept).not.toContain(csp.basic.authorized_official_middle_name);
    expect(kept).not.toContain(csp.basic.authorized_official_title_or_position);
  });

  it("knows deactivated NPIs, published bare, and a reactivation after a deactivation", () => {
    const bare = ok(readNppes(nppesCsv([deactivatedRow("1003142399", "2023-05-01")]))[0]!);
    expect(bare).toMatchObject({ npi: "1003142399", entity_type: null, name: null, deactivated_on: "2023-05-01" });
    expect(isDeactivated(bare)).toBe(true);
    const reactivated = ok(readNppes(nppesCsv([nppesRowOf(records.find((r) => r.number === 1003142399)!)]))[0]!);
    expect(reactivated).toMatchObject({ deactivated_on: "2015-01-14", reactivated_on: "2019-02-13" });
    expect(isDeactivated(reactivated)).toBe(false);
  });

  it("refuses a record with an invalid NPI, entity type, date or taxonomy code, naming the column", () => {
    const base = nppesRowOf(records[0]!);
    const at = (c: string) => NPPES_COLUMNS.indexOf(c);
    const bad = (column: string, value: string) => {
      const row = [...base];
      row[at(column)] = value;
      const p = readNppes(nppesCsv([row]))[0]!;
      return p.ok ? null : p.refusal;
    };
    expect(bad("NPI", "1568946813")).toEqual({ field: "NPI", reason: '"1568946813" is not a valid NPI' });
    expect(bad("Entity Type Code", "3")?.field).toBe("Entity Type Code");
    expect(bad("Provider Enumeration Date", "13/45/2018")).toEqual({
      field: "Provider Enumeration Date",
      reason: '"13/45/2018" is not a date (MM/DD/YYYY)',
    });
    expect(bad("Healthcare Provider Taxonomy Code_1", "not-a-code")?.field).toBe("Healthcare Provider Taxonomy Code");
    expect(bad("Provider Organization Name (Legal Business Name)", "x".repeat(400))?.reason).toMatch(/longer than/);
  });

  it("refuses an API error answer and a file that is not an API answer", () => {
    expect(() => parseRegistryAnswer({ Errors: [{ description: "No valid search criteria" }] })).toThrow(
      /refused the query: No valid search criteria/,
    );
    expect(() => parseRegistryAnswer([1, 2])).toThrow(/not an NPI Registry API answer/);
  });
});

describe("the domains endpoints name", () => {
  it("takes a Direct address's domain, a URL's host, a bare host; nothing from an IP or junk", () => {
    expect(endpointDomain("dr.smith@direct.lakeside-family.test")).toBe("direct.lakeside-family.test");
    expect(endpointDomain("https://fhir.Lakeside-Family.test/r4/")).toBe("fhir.lakeside-family.test");
    expect(endpointDomain("www.maple-pediatrics.test/portal")).toBe("www.maple-pediatrics.test");
    expect(endpointDomain("https://10.1.2.3/fhir")).toBeNull();
    expect(endpointDomain("not a domain")).toBeNull();
  });
});
