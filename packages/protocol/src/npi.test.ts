import { describe, expect, it } from "vitest";
import {
  InvalidNpiError,
  isValidNpi,
  luhnCheckDigit,
  NpiSchema,
  parseNpi,
  safeParseNpi,
  withNpiCheckDigit,
} from "./npi.js";

// Valid NPIs: the CMS example from the NPI check-digit guidance, and others checked with an independent
// implementation of the rule (Python, outside this codebase).
const VALID = ["1234567893", "1245319599", "1003000126", "1679576722", "1306849450"];

describe("NPI validation", () => {
  it.each(VALID)("accepts %s", (npi) => {
    expect(isValidNpi(npi)).toBe(true);
    expect(parseNpi(npi)).toBe(npi);
    expect(NpiSchema.parse(npi)).toBe(npi);
  });

  it("accepts the CMS worked example 123456789 -> check digit 3", () => {
    // CMS: 24 + (doubled alternates) = 67, next multiple of ten 70, check digit 3.
    expect(luhnCheckDigit("80840123456789")).toBe(3);
  });

  it("rejects every wrong check digit of every valid NPI", () => {
    for (const npi of VALID) {
      for (let d = 0; d <= 9; d++) {
        const candidate = npi.slice(0, 9) + String(d);
        const expected = candidate === npi;
        expect(isValidNpi(candidate), candidate).toBe(expected);
        if (!expected) expect(safeParseNpi(candidate)).toEqual({ ok: false, problem: "bad_check_digit" });
      }
    }
  });

  it.each(["", "1", "123456789", "12345678930", "00000000000", "1234567893 1234567893"])(
    "rejects wrong length %j",
    (value) => {
      expect(isValidNpi(value)).toBe(false);
      expect(safeParseNpi(value)).toEqual({ ok: false, problem: "wrong_length" });
    },
  );

  it.each(["12345678a3", "12345-7893", "１２３４５６７８９３", "123456789.", "+123456789", "-123456789", "0x12345678"])(
    "rejects non-digits %j",
    (value) => {
      expect(isValidNpi(value)).toBe(false);
    },
  );

  it.each([" 1234567893", "1234567893 ", "1234567893\n", "\t1234567893", "12345 7893", " 123456789"])(
    "rejects whitespace %j (never trimmed)",
    (value) => {
      expect(isValidNpi(value)).toBe(false);
      expect(() => parseNpi(value)).toThrow(InvalidNpiError);
    },
  );

  it.each([1234567893, null, undefined, {}, ["1234567893"], true])("rejects non-strings %j", (value) => {
    expect(isValidNpi(value)).toBe(false);
    expect(safeParseNpi(value)).toEqual({ ok: false, problem: "not_a_string" });
  });

  it("throws a coded error with a user-safe message", () => {
    try {
      parseNpi("1234567890");
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidNpiError);
      expect((err as InvalidNpiError).code).toBe("invalid_npi");
      expect((err as InvalidNpiError).problem).toBe("bad_check_digit");
      expect((err as Error).message).toBe("npi must be 10 digits with a valid check digit");
    }
  });

  it("completes check digits consistently with validation", () => {
    for (const nine of ["123456789", "000000000", "999999999", "100300012"]) {
      const npi = withNpiCheckDigit(nine);
      expect(isValidNpi(npi)).toBe(true);
    }
    expect(withNpiCheckDigit("123456789")).toBe("1234567893");
  });

  it("the zod schema reports the same message", () => {
    const r = NpiSchema.safeParse("1234567890");
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe("npi must be 10 digits with a valid check digit");
  });
});
