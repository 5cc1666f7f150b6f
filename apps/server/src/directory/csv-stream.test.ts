import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../intel/csv.js";
import { CsvByteStream } from "./csv-stream.js";

/** Every record of `text`, pushed in chunks of `size` bytes: fields, end offsets. */
function records(text: string, size: number, wanted: ReadonlySet<number> | null = null) {
  const out: { fields: (string | undefined)[]; end: number; row: number }[] = [];
  const s = new CsvByteStream({ wanted, maxRecordBytes: 1 << 16 });
  const bytes = Buffer.from(text, "utf8");
  const take = (r: { fields: readonly (string | undefined)[]; end: number; row: number }) =>
    out.push({ fields: [...r.fields], end: r.end, row: r.row });
  for (let i = 0; i < bytes.length; i += size) s.push(bytes.subarray(i, i + size), take);
  s.end(take);
  return out;
}

describe("CsvByteStream", () => {
  it("reads quoted fields with commas, doubled quotes, line breaks and UTF-8, whatever the chunking", () => {
    const text = 'a,"b, c","say ""hi"""\r\n"multi\nline",,"é ü"\n\n"x"\n';
    for (const size of [1, 2, 3, 7, 1000]) {
      const r = records(text, size);
      expect(r.map((x) => x.fields)).toEqual([["a", "b, c", 'say "hi"'], ["multi\nline", "", "é ü"], ["x"]]);
      expect(r.map((x) => x.row)).toEqual([1, 2, 3]);
    }
  });

  it("gives each record's end offset, where a resumed read starts", () => {
    const text = '"h1","h2"\n"a","b"\r\n"c","d"\n';
    const r = records(text, 4);
    expect(r.map((x) => x.end)).toEqual([10, 19, 27]);
    const resumed = new CsvByteStream({ wanted: null, maxRecordBytes: 1024, startOffset: 19, rowsBefore: 2 });
    const got: string[][] = [];
    resumed.push(Buffer.from(text).subarray(19), (x) => got.push(x.fields.map(String)));
    expect(got).toEqual([["c", "d"]]);
  });

  it("decodes only the wanted columns", () => {
    const r = records('"1","2","3"\n"4","5","6"\n', 5, new Set([1]));
    expect(r.map((x) => x.fields)).toEqual([
      [undefined, "2", undefined],
      [undefined, "5", undefined],
    ]);
  });

  it("reads the last record without a line break, and refuses a quote that never closes or text after a quote", () => {
    expect(records('"a","b"', 3).map((x) => x.fields)).toEqual([["a", "b"]]);
    expect(() => records('"a","b\n', 3)).toThrow(/row 1, field 2: a quoted field never closes/);
    expect(() => records('"a"x,"b"\n', 3)).toThrow(/row 1, field 1: text after a closing quote/);
  });

  it("refuses a record longer than its bound instead of buffering the file", () => {
    const s = new CsvByteStream({ wanted: null, maxRecordBytes: 100 });
    expect(() => s.push(Buffer.from(`"${"x".repeat(200)}`), () => {})).toThrow(/longer than 100 bytes/);
  });

  it("agrees with the whole-text parser on any CSV, in any chunking", () => {
    const field = fc.oneof(
      fc.string({ maxLength: 8 }).filter((s) => !/[",\r\n]/.test(s)),
      fc.string({ maxLength: 8 }).map((s) => `"${s.replaceAll('"', '""')}"`),
    );
    const record = fc.array(field, { minLength: 1, maxLength: 5 }).map((fs) => fs.join(","));
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 9 }), (rs, size) => {
        // (A line holding only `""` is a record of one empty field here; the whole-text parser skips it as blank.)
        const text = `${rs.filter((r) => r !== "" && r !== '""').join("\n")}\n`;
        const expected = parseCsv(text).map((r) => r.fields);
        expect(records(text, size).map((r) => r.fields)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
