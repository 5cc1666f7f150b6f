import { describe, expect, it } from "vitest";
import { gradeAtLeast, gradeCeiling, gradeForScore, worseGrade } from "./grade.js";

describe("grade thresholds", () => {
  it.each([
    [100, "A"],
    [90, "A"],
    [89, "B"],
    [80, "B"],
    [79, "C"],
    [70, "C"],
    [69, "D"],
    [60, "D"],
    [59, "F"],
    [0, "F"],
  ] as const)("score %i -> %s", (score, grade) => {
    expect(gradeForScore(score)).toBe(grade);
  });

  it("every integer 0..100 gets exactly the band it falls in", () => {
    for (let s = 0; s <= 100; s++) {
      const expected = s >= 90 ? "A" : s >= 80 ? "B" : s >= 70 ? "C" : s >= 60 ? "D" : "F";
      expect(gradeForScore(s)).toBe(expected);
    }
  });

  it.each([-1, 101, Number.NaN, Number.POSITIVE_INFINITY])("refuses out-of-range score %s", (s) => {
    expect(() => gradeForScore(s)).toThrow(RangeError);
  });

  it("ceilings are the top of each band", () => {
    expect(gradeCeiling("A")).toBe(100);
    expect(gradeCeiling("B")).toBe(89);
    expect(gradeCeiling("C")).toBe(79);
    expect(gradeCeiling("D")).toBe(69);
    expect(gradeCeiling("F")).toBe(59);
    for (const g of ["A", "B", "C", "D", "F"] as const) expect(gradeForScore(gradeCeiling(g))).toBe(g);
  });

  it("orders grades", () => {
    expect(worseGrade("A", "C")).toBe("C");
    expect(worseGrade("F", "B")).toBe("F");
    expect(gradeAtLeast("B", "C")).toBe(true);
    expect(gradeAtLeast("C", "C")).toBe(true);
    expect(gradeAtLeast("D", "C")).toBe(false);
  });
});
