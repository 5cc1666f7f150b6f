import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isServiceError } from "../errors.js";
import { checkRosterCsv, recordsFromCsv } from "./training.js";
import { CsvError, parseCsvRecords, parseTrainingCsv } from "./training-csv.js";
import { trainingSummary } from "./training-status.js";

describe("training roster CSV", () => {
  it("reads RFC 4180 quoting, CRLF, a BOM and columns in any order", () => {
    const text =
      '\uFEFFname,member_id,role,hired_on,completed_on\r\n"Ortiz, Dana",e1,"Office ""lead""",2020-01-06,2024-01-10\r\nLee,e2,MA,2024-05-01,\r\n';
    expect(parseTrainingCsv(text)).toEqual([
      {
        line: 2,
        row: {
          name: "Ortiz, Dana",
          member_id: "e1",
          role: 'Office "lead"',
          hired_on: "2020-01-06",
          completed_on: "2024-01-10",
        },
      },
      { line: 3, row: { name: "Lee", member_id: "e2", role: "MA", hired_on: "2024-05-01" } },
    ]);
  });
  it("names the line of a malformed row and refuses unknown columns", () => {
    expect(() => parseTrainingCsv("member_id,name,role,hired_on\ne1,A,B\n")).toThrow(/line 2: 3 fields/);
    expect(() => parseTrainingCsv("member_id,name,role,ssn\n")).toThrow(/unknown column/);
    expect(() => parseTrainingCsv('member_id,name,role,hired_on\n"e1,A,B,C\n')).toThrow(CsvError);
  });
  it("never throws anything but a CsvError on hostile text", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", ",", '"', "\n", "\r", "member_id", "name", "role", "hired_on", "1") }),
        (text) => {
          try {
            parseTrainingCsv(text);
          } catch (err) {
            expect(err).toBeInstanceOf(CsvError);
          }
        },
      ),
    );
    expect(parseCsvRecords("a,b\n\n")).toEqual([{ line: 1, fields: ["a", "b"] }]);
  });
});

describe("roster CSV check", () => {
  const text = [
    "member_id,name,role,hired_on,completed_on",
    "e1,Ann,MA,2024-02-30,",
    "e2,Bo,MA,2024-01-01",
    "e3,Cy,MA,2024-01-01,2024-06-01",
    "e4,Di,MA,2024-01-01,June",
  ].join("\n");

  it("lists every row's problem with its line (the rows' own, then their fields') and keeps only good rows", () => {
    const checked = checkRosterCsv(text);
    expect(checked.problems).toEqual([
      { line: 3, field: null, message: "4 fields, the header has 5" },
      { line: 2, field: "hired_on", message: "not a date on the calendar" },
      { line: 5, field: "completed_on", message: "a date as YYYY-MM-DD" },
    ]);
    expect(checked.rows).toBe(4);
    expect(checked.records.members.map((m) => m.member_id)).toEqual(["e3"]);
    expect(checked.records.completions).toHaveLength(1);
  });

  it("answers the API's 400 with the first problem, as before", () => {
    try {
      recordsFromCsv(text);
      expect.unreachable();
    } catch (err) {
      expect(isServiceError(err) && err.code).toBe("invalid_body");
      expect((err as Error).message).toBe("CSV line 3: 4 fields, the header has 5");
    }
    expect(() => recordsFromCsv("member_id,name,role,hired_on\ne1,A,B,2024-01-01\n")).not.toThrow();
  });
});

describe("training status", () => {
  const roster = [
    { member_id: "e1", name: "A", role: "front desk", hired_on: "2020-01-06", terminated_on: null },
    { member_id: "e2", name: "B", role: "MA", hired_on: "2024-02-20", terminated_on: null },
    { member_id: "e3", name: "C", role: "billing", hired_on: "2024-01-02", terminated_on: null },
    { member_id: "e4", name: "D", role: "nurse", hired_on: "2019-01-01", terminated_on: "2024-01-31" },
  ];
  it("is due 30 days after hire and a calendar year after each completion; leavers are not counted", () => {
    const s = trainingSummary(roster, [{ member_id: "e1", course: "x", completed_on: "2023-03-01" }], "2024-03-01");
    const by = Object.fromEntries(s.members.map((m) => [m.member_id, m]));
    // A calendar year, not 365 days: across 29 February 2024 the refresher is still due on 1 March.
    expect(by.e1).toMatchObject({ due_on: "2024-03-01", state: "current" });
    expect(by.e2).toMatchObject({ due_on: "2024-03-21", state: "due" });
    expect(by.e3).toMatchObject({ due_on: "2024-02-01", state: "overdue" });
    expect(by.e4).toBeUndefined();
    expect(s).toMatchObject({ active_members: 3, current: 1, due: 1, overdue: 1, completion_rate: 0.333 });
    const dayAfter = trainingSummary(
      roster,
      [{ member_id: "e1", course: "x", completed_on: "2023-03-01" }],
      "2024-03-02",
    );
    expect(dayAfter.members.find((m) => m.member_id === "e1")?.state).toBe("overdue");
    // A leap-day completion falls due on 28 February of the next year.
    const leap = trainingSummary(
      roster.slice(0, 1),
      [{ member_id: "e1", course: "x", completed_on: "2024-02-29" }],
      "2024-03-01",
    );
    expect(leap.members[0]?.due_on).toBe("2025-02-28");
  });
});
