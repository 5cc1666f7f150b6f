import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sharedDataFile } from "../test-support/shared-data.js";
import { isFeedError } from "./feed-error.js";
import { parseKevCatalogue } from "./kev-json.js";

const KEV = sharedDataFile("cisa-kev/known_exploited_vulnerabilities.json", "CISA KEV catalogue");
const SCHEMA = sharedDataFile("cisa-kev/known_exploited_vulnerabilities_schema.json", "CISA KEV schema");

const entry = (cve: string, extra: Record<string, unknown> = {}) => ({
  cveID: cve,
  vendorProject: "Apache",
  product: "HTTP Server",
  vulnerabilityName: "Apache HTTP Server Path Traversal",
  dateAdded: "2021-11-03",
  shortDescription: "Apache HTTP Server 2.4.49 and 2.4.50 contain a path traversal vulnerability.",
  requiredAction: "Apply updates per vendor instructions.",
  dueDate: "2021-11-17",
  knownRansomwareCampaignUse: "Known",
  notes: "",
  cwes: ["CWE-22"],
  ...extra,
});
const catalogue = (vulnerabilities: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    title: "CISA Catalog of Known Exploited Vulnerabilities",
    catalogVersion: "2021.11.03",
    dateReleased: "2021-11-03T12:00:00.000Z",
    count: vulnerabilities.length,
    vulnerabilities,
    ...extra,
  });

function refusal(text: string) {
  try {
    parseKevCatalogue(text);
  } catch (err) {
    if (isFeedError(err)) return err;
    throw err;
  }
  throw new Error("accepted");
}

describe.skipIf(!KEV)("the real catalogue", () => {
  it("validates all 1,404 entries and keeps the catalogue version", () => {
    const kev = parseKevCatalogue(readFileSync(KEV!, "utf8"));
    expect(kev.catalogVersion).toBe("2025.08.25");
    expect(kev.vulnerabilities).toHaveLength(1404);
    expect(kev.vulnerabilities[0]).toMatchObject({ cveID: "CVE-2025-48384", vendorProject: "Git", product: "Git" });
  });
});

describe.skipIf(!SCHEMA)("the mirror of the published schema", () => {
  it("requires what the schema requires, with its CVE and CWE patterns", () => {
    const schema = JSON.parse(readFileSync(SCHEMA!, "utf8"));
    expect(schema.required.sort()).toEqual(["catalogVersion", "count", "dateReleased", "vulnerabilities"]);
    const required: string[] = schema.$defs.vulnerability.required;
    for (const field of required) {
      const rest: Record<string, unknown> = entry("CVE-2021-41773");
      delete rest[field];
      expect(refusal(catalogue([rest])).at.column, field).toBe(field);
    }
    const pattern = new RegExp(schema.$defs.vulnerability.properties.cveID.pattern);
    for (const cve of ["CVE-2021-41773", "CVE-2021-1234567", "CVE-21-1", "cve-2021-41773", "CVE-2021-123"]) {
      const ours = (() => {
        try {
          parseKevCatalogue(catalogue([entry(cve)]));
          return true;
        } catch {
          return false;
        }
      })();
      expect(ours, cve).toBe(pattern.test(cve));
    }
    const cwe = new RegExp(schema.$defs.vulnerability.properties.cwes.items.pattern);
    expect(cwe.test("CWE-x")).toBe(false);
    expect(refusal(catalogue([entry("CVE-2021-41773", { cwes: ["CWE-x"] })])).at.column).toBe("cwes");
  });
});

describe("hostile catalogues", () => {
  it("refuses a truncated download", () => {
    const text = catalogue([entry("CVE-2021-41773"), entry("CVE-2021-42013")]);
    expect(refusal(text.slice(0, text.length - 40)).code).toBe("feed_malformed");
  });
  it("refuses a count that disagrees with the entries", () => {
    const err = refusal(catalogue([entry("CVE-2021-41773")], { count: 2 }));
    expect(err.message).toMatch(/count says 2 entries but vulnerabilities holds 1/);
  });
  it("names the entry and field of a bad date, and refuses a CVE listed twice", () => {
    const bad = refusal(catalogue([entry("CVE-2021-41773"), entry("CVE-2021-42013", { dueDate: "2021-13-01" })]));
    expect([bad.code, bad.at.row, bad.at.column]).toEqual(["feed_schema_mismatch", 1, "dueDate"]);
    expect(bad.message).toContain("vulnerabilities[1] (CVE-2021-42013)");
    const twice = refusal(catalogue([entry("CVE-2021-41773"), entry("CVE-2021-41773")]));
    expect([twice.code, twice.at.row]).toEqual(["feed_duplicate_rows", 1]);
  });
  it("refuses another JSON document", () => {
    expect(refusal(JSON.stringify({ hello: "world" })).code).toBe("feed_schema_mismatch");
    expect(refusal("[]").code).toBe("feed_schema_mismatch");
  });
});
