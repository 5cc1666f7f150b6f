import { readFileSync } from "node:fs";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedDataFile } from "../test-support/shared-data.js";
import { parseCsv } from "./csv.js";
import { type FeedError, isFeedError } from "./feed-error.js";
import { type HhsBreachFile, parseHhsBreachCsv, readBoolean, readDate } from "./hhs-breach-csv.js";

const CURRENT = sharedDataFile("hhs-ocr-breaches/breach_report_2024-12-09.csv", "HHS OCR breach export (2024)");
const ARCHIVE = sharedDataFile("hhs-ocr-breaches/breach_report_archive_2009-2016.csv", "HHS OCR breach archive");

const OFFICIAL_HEADER =
  "Name of Covered Entity,State,Covered Entity Type,Individuals Affected,Breach Submission Date,Type of Breach,Location of Breached Information,Business Associate Present,Web Description";

function refusal(text: string): FeedError {
  try {
    parseHhsBreachCsv(text);
  } catch (err) {
    if (isFeedError(err)) return err;
    throw err;
  }
  throw new Error("the file was accepted");
}

// The files are read in beforeAll, not in the describe's body: vitest runs a skipped describe's body to collect its
// tests, and the path is null then.
describe.skipIf(!CURRENT)("the real 2024 export", () => {
  let file: HhsBreachFile;
  beforeAll(() => {
    file = parseHhsBreachCsv(readFileSync(CURRENT!, "utf8"));
  });
  it("reads every row, ignores the trailing Year column and knows the newest submission", () => {
    expect(file.breaches).toHaveLength(853);
    expect(file.ignoredColumns).toEqual(["Year"]);
    expect(file.duplicates).toEqual([]);
    expect(file.newestSubmission).toBe("2024-12-03");
  });
  it("keeps names with commas and d/b/a whole, and Yes/No as booleans", () => {
    const vann = file.breaches.find((b) => b.entityName.startsWith("Vann Virginia"));
    expect(vann).toMatchObject({
      entityName: "Vann Virginia Center for Orthopaedics, PC dba Atlantic Orthopaedic Specialists",
      state: "VA",
      entityType: "Healthcare Provider",
      individualsAffected: 15264,
      submittedOn: "2024-11-22",
      breachTypes: ["Hacking/IT Incident"],
      locations: ["Email"],
      businessAssociatePresent: false,
      description: null,
    });
  });
});

describe.skipIf(!ARCHIVE)("the real 2009–2016 archive", () => {
  let file: HhsBreachFile;
  beforeAll(() => {
    file = parseHhsBreachCsv(readFileSync(ARCHIVE!, "utf8"));
  });
  it("reads snake_case headers, true/false, quoted multi-line descriptions and MySQL \\N nulls", () => {
    // 1,700 rows; two pairs report the same breach twice (one differs only in entity type and BA flag).
    expect(file.breaches).toHaveLength(1698);
    expect(file.duplicates).toEqual([
      { row: 646, sameAs: 645 },
      { row: 1493, sameAs: 1492 },
    ]);
    const brooke = file.breaches[0]!;
    expect(brooke).toMatchObject({ entityName: "Brooke Army Medical Center", submittedOn: "2009-10-21" });
    expect(brooke.businessAssociatePresent).toBe(false);
    const wellpoint = file.breaches.find((b) => b.entityName === "WellPoint, Inc.");
    expect(wellpoint?.description).toBeNull();
    expect(file.breaches.some((b) => b.description?.includes("\n"))).toBe(true);
    // The escaped break (`\<CR>`) at the end of an unquoted description does not split the record.
    const penn = file.breaches.find((b) => b.entityName.startsWith("Penn Treaty"));
    expect(penn?.description?.endsWith("policies and procedures.")).toBe(true);
    expect(file.breaches.filter((b) => b.state === null)).toHaveLength(11);
  });
});

describe("variants and hostile files", () => {
  const row = (cells: string) => `${OFFICIAL_HEADER}\n${cells}\n`;
  it("accepts MM/DD/YYYY dates, Yes/No, true/false, quoted newlines, CRLF and a BOM", () => {
    const text = `\uFEFF${OFFICIAL_HEADER}\r\n"Smith Dental, P.C.",oh,Healthcare Provider,"1,200",3/7/2024,Hacking/IT Incident,"Email, Network Server",TRUE,"line one\r\nline two"\r\n`;
    const [b] = parseHhsBreachCsv(text).breaches;
    expect(b).toMatchObject({
      entityName: "Smith Dental, P.C.",
      state: "OH",
      individualsAffected: 1200,
      submittedOn: "2024-03-07",
      locations: ["Email", "Network Server"],
      businessAssociatePresent: true,
      description: "line one\r\nline two",
    });
  });
  it("names the row and column of an unreadable date, number, boolean or state", () => {
    const cases: [string, number, string, RegExp][] = [
      ["A,OH,Healthcare Provider,600,2024-02-30,Theft,Laptop,No,", 2, "Breach Submission Date", /not a date/],
      ["A,OH,Healthcare Provider,lots,2024-02-03,Theft,Laptop,No,", 2, "Individuals Affected", /whole number/],
      ["A,OH,Healthcare Provider,600,2024-02-03,Theft,Laptop,maybe,", 2, "Business Associate Present", /Yes\/No/],
      ["A,Ohio,Healthcare Provider,600,2024-02-03,Theft,Laptop,No,", 2, "State", /two-letter/],
      [",OH,Healthcare Provider,600,2024-02-03,Theft,Laptop,No,", 2, "Name of Covered Entity", /blank/],
    ];
    for (const [cells, rowNumber, column, message] of cases) {
      const err = refusal(row(cells));
      expect([err.code, err.at.row, err.at.column], cells).toEqual(["feed_bad_value", rowNumber, column]);
      expect(err.message).toMatch(message);
      expect(err.message).toContain(`row ${rowNumber}, column "${column}"`);
    }
  });
  it("refuses a file with the wrong columns, naming what is missing", () => {
    const err = refusal("Name,Date,Count\nA,2024-01-01,5\n");
    expect(err.code).toBe("feed_wrong_columns");
    expect(err.message).toMatch(/missing column\(s\) "State", "Covered Entity Type"/);
  });
  it("refuses a truncated file: a short last row, or a quote that never closes", () => {
    const full = row("A,OH,Healthcare Provider,600,2024-02-03,Theft,Laptop,No,") + "B,TX,Health Plan,900,2024";
    expect(refusal(full)).toMatchObject({ code: "feed_wrong_columns", at: { row: 3 } });
    expect(refusal(full).message).toMatch(/truncated/);
    const open = row('A,OH,Healthcare Provider,600,2024-02-03,Theft,Laptop,No,"the description');
    expect(refusal(open)).toMatchObject({ code: "feed_malformed", at: { row: 2 } });
  });
  it("counts a report listed twice once, and refuses a file made of repeats", () => {
    const one = "A,OH,Healthcare Provider,600,2024-02-03,Theft,Laptop,No,";
    const many = Array.from({ length: 200 }, (_, i) => `E${i},OH,Healthcare Provider,600,2024-02-03,Theft,Laptop,No,`);
    expect(parseHhsBreachCsv(row([one, ...many, one].join("\n"))).duplicates).toEqual([{ row: 203, sameAs: 2 }]);
    const err = refusal(row(Array.from({ length: 50 }, () => one).join("\n")));
    expect(err.code).toBe("feed_duplicate_rows");
    expect(err.message).toMatch(/49 of 50 rows repeat an earlier row \(row 3 repeats row 2/);
  });
  it("refuses an empty file and a header without rows", () => {
    expect(refusal("").code).toBe("feed_empty");
    expect(refusal(`${OFFICIAL_HEADER}\n`).code).toBe("feed_empty");
  });
  it("never fails with anything but a FeedError on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (tail) => {
        try {
          parseHhsBreachCsv(`${OFFICIAL_HEADER}\n${tail}`);
        } catch (err) {
          expect(isFeedError(err)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("cells", () => {
  it("reads dates on the calendar only, and the boolean spellings", () => {
    expect(readDate("2024-02-29")).toBe("2024-02-29");
    expect(readDate("2023-02-29")).toBeNull();
    expect(readDate("12/31/2024")).toBe("2024-12-31");
    expect(readDate("2024-12-03T00:00:00")).toBe("2024-12-03");
    expect(readDate("31/12/2024")).toBeNull();
    expect([readBoolean("Yes"), readBoolean("false"), readBoolean(""), readBoolean("perhaps")]).toEqual([
      true,
      false,
      null,
      undefined,
    ]);
  });
  it("parses quoted commas, doubled quotes and blank lines", () => {
    expect(parseCsv('a,"b, c","say ""hi"""\n\n1,2,3').map((r) => [r.row, r.fields])).toEqual([
      [1, ["a", "b, c", 'say "hi"']],
      [2, ["1", "2", "3"]],
    ]);
  });
});
