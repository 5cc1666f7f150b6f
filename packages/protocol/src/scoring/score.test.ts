import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CATEGORIES,
  CATEGORY_NAMES,
  type CategoryName,
  SEVERITIES,
  type Severity,
  type Source,
} from "../categories.js";
import { GRADE_CAP_IDS, GRADE_CAPS, type GradeCapId } from "./caps.js";
import { gradeForScore } from "./grade.js";
import { SCORING_VERSION, type ScorableFinding, type ScoringSubject, scoreCategory, scorePractice } from "./score.js";

const f = (category: CategoryName, severity: Severity, grade_cap?: GradeCapId): ScorableFinding => ({
  category,
  severity,
  grade_cap,
});

const external = (
  findings: ScorableFinding[],
  categories: CategoryName[] = ["email_security", "application_security", "privacy_compliance"],
): ScoringSubject => ({
  source: "external",
  subject: "example.org",
  categories,
  findings,
});

const host = (
  name: string,
  findings: ScorableFinding[],
  categories: CategoryName[] = ["encryption", "access_control", "network_security", "asset_management", "contingency"],
): ScoringSubject => ({
  source: "internal",
  subject: name,
  categories,
  findings,
});

describe("category weights", () => {
  it("are integers that sum to 100", () => {
    const weights = Object.values(CATEGORIES).map((c) => c.weight);
    for (const w of weights) expect(Number.isInteger(w)).toBe(true);
    expect(weights.reduce((a, b) => a + b, 0)).toBe(100);
  });
});

describe("scoreCategory", () => {
  it("deducts by severity and stops at 0", () => {
    expect(scoreCategory([])).toBe(100);
    expect(scoreCategory([{ severity: "critical" }])).toBe(60);
    expect(
      scoreCategory([{ severity: "high" }, { severity: "medium" }, { severity: "low" }, { severity: "info" }]),
    ).toBe(65);
    expect(scoreCategory(Array.from({ length: 6 }, () => ({ severity: "critical" as const })))).toBe(0);
  });
});

describe("scorePractice", () => {
  it("returns null when no category has data", () => {
    expect(scorePractice([])).toBeNull();
    expect(scorePractice([external([], [])])).toBeNull();
  });

  it("averages by weight over categories with data only and reports coverage", () => {
    const r = scorePractice([external([f("email_security", "high")])])!;
    // email 80 ×10, application 100 ×15, privacy 100 ×10 → 9300/35 = 265.7… → 97
    expect(r.categories).toEqual({
      email_security: { score: 80, weight: 10 },
      application_security: { score: 100, weight: 15 },
      privacy_compliance: { score: 100, weight: 10 },
    });
    expect(r.compliance_score).toBe(Math.round((80 * 10 + 100 * 15 + 100 * 10) / 35));
    expect(r.grade).toBe("A");
    expect(r.coverage.external.status).toBe("full");
    expect(r.coverage.internal).toEqual({
      status: "none",
      categories_with_data: [],
      categories_without_data: ["encryption", "access_control", "network_security", "asset_management", "contingency"],
    });
    expect(r.coverage.administrative.status).toBe("none");
    expect(r.scoring_version).toBe(SCORING_VERSION);
    expect(r.caps_applied).toEqual([]);
  });

  it("counts a finding's category as examined even if the subject did not list it", () => {
    const r = scorePractice([external([f("email_security", "critical")], [])])!;
    expect(r.categories).toEqual({ email_security: { score: 60, weight: 10 } });
    expect(r.coverage.external.status).toBe("partial");
  });

  it("takes the weakest host for internal categories", () => {
    const r = scorePractice([
      host("a", [f("encryption", "critical")]),
      host("b", [f("encryption", "low"), f("contingency", "high")]),
    ])!;
    expect(r.categories.encryption).toEqual({ score: 60, weight: 15 });
    expect(r.categories.contingency).toEqual({ score: 80, weight: 10 });
    expect(r.categories.access_control).toEqual({ score: 100, weight: 10 });
  });

  it("a host that did not examine a category does not count for it", () => {
    const r = scorePractice([host("a", []), host("b", [], ["encryption"])])!;
    expect(r.categories.contingency?.score).toBe(100);
    const onlyB = scorePractice([host("b", [f("encryption", "critical")], ["encryption"])])!;
    expect(Object.keys(onlyB.categories)).toEqual(["encryption"]);
    expect(onlyB.coverage.internal.status).toBe("partial");
  });

  it("lands exactly on the grade boundaries", () => {
    // One category with data: its score is the overall score, so boundaries can be hit exactly.
    const cases: [ScorableFinding[], number, string][] = [
      [[f("email_security", "medium")], 90, "A"],
      [[f("email_security", "medium"), f("email_security", "low"), f("email_security", "info")], 85, "B"],
      [[f("email_security", "high")], 80, "B"],
      [[f("email_security", "high"), f("email_security", "medium")], 70, "C"],
      [[f("email_security", "critical")], 60, "D"],
      [[f("email_security", "critical"), f("email_security", "medium")], 50, "F"],
    ];
    for (const [findings, score, grade] of cases) {
      const r = scorePractice([external(findings, ["email_security"])])!;
      expect(r.compliance_score).toBe(score);
      expect(r.grade).toBe(grade);
    }
  });

  it("rounds the weighted mean to the grade boundary it reaches (89.5 -> 90, 59.4 -> 59)", () => {
    // application 95 (15) + privacy 85 (10): (1425 + 850) / 25 = 91 — use values that straddle instead:
    // email 100 ×10 + application 85 ×15 + privacy 85 ×10 → (1000 + 1275 + 850)/35 = 89.29 → 89 (B)
    const b = scorePractice([
      external([
        f("application_security", "medium"),
        f("application_security", "low"),
        f("privacy_compliance", "medium"),
        f("privacy_compliance", "low"),
      ]),
    ])!;
    expect(b.compliance_score).toBe(89);
    expect(b.grade).toBe("B");
    // email 100 + application 90 + privacy 80: (1000 + 1350 + 800)/35 = 90 → A
    const a = scorePractice([external([f("application_security", "medium"), f("privacy_compliance", "high")])])!;
    expect(a.compliance_score).toBe(90);
    expect(a.grade).toBe("A");
  });

  it.each(GRADE_CAP_IDS)("cap %s limits the grade to its max grade and the score to that band", (cap) => {
    const r = scorePractice([external([f("privacy_compliance", "info", cap)])])!;
    const max = GRADE_CAPS[cap].max_grade;
    expect(r.uncapped_score).toBe(100);
    expect(r.grade).toBe(max);
    expect(gradeForScore(r.compliance_score)).toBe(r.grade);
    expect(r.caps_applied).toEqual([{ id: cap, max_grade: max, reason: GRADE_CAPS[cap].reason }]);
  });

  it("the strictest of several caps wins; a cap never raises a low score", () => {
    const r = scorePractice([
      external([
        f("application_security", "low", "legacy_tls"),
        f("application_security", "critical", "remote_access_exposed"),
      ]),
    ])!;
    expect(r.grade).toBe("F");
    expect(r.caps_applied.map((c) => c.id).sort()).toEqual(["legacy_tls", "remote_access_exposed"]);
    const low = scorePractice([
      external(
        Array.from({ length: 3 }, () => f("email_security", "critical", "legacy_tls")),
        ["email_security"],
      ),
    ])!;
    expect(low.compliance_score).toBe(0);
    expect(low.grade).toBe("F");
  });

  it("stays within 0..100 when everything is wrong", () => {
    const everything = CATEGORY_NAMES.flatMap((c) => Array.from({ length: 10 }, () => f(c, "critical")));
    const r = scorePractice([{ source: "internal", subject: "h", categories: CATEGORY_NAMES, findings: everything }])!;
    expect(r.compliance_score).toBe(0);
    expect(r.grade).toBe("F");
  });
});

// ---- property tests ----

const categoryArb = fc.constantFrom(...CATEGORY_NAMES);
const findingArb: fc.Arbitrary<ScorableFinding> = fc.record({
  category: categoryArb,
  severity: fc.constantFrom(...SEVERITIES),
  grade_cap: fc.option(fc.constantFrom(...GRADE_CAP_IDS), { nil: undefined, freq: 8 }),
});
const subjectArb: fc.Arbitrary<ScoringSubject> = fc.record({
  source: fc.constantFrom<Source>("external", "internal", "administrative"),
  subject: fc.string({ minLength: 1, maxLength: 8 }),
  categories: fc.uniqueArray(categoryArb, { maxLength: CATEGORY_NAMES.length }),
  findings: fc.array(findingArb, { maxLength: 12 }),
});
const subjectsArb = fc.array(subjectArb, { minLength: 1, maxLength: 5 });

const RANK = { A: 0, B: 1, C: 2, D: 3, F: 4 } as const;

describe("scoring properties", () => {
  it("score is an integer in 0..100 and the grade is derived from it", () => {
    fc.assert(
      fc.property(subjectsArb, (subjects) => {
        const r = scorePractice(subjects);
        if (!r) return;
        expect(Number.isInteger(r.compliance_score)).toBe(true);
        expect(r.compliance_score).toBeGreaterThanOrEqual(0);
        expect(r.compliance_score).toBeLessThanOrEqual(100);
        expect(r.compliance_score).toBeLessThanOrEqual(r.uncapped_score);
        expect(r.grade).toBe(gradeForScore(r.compliance_score));
        for (const c of Object.values(r.categories)) {
          expect(c!.score).toBeGreaterThanOrEqual(0);
          expect(c!.score).toBeLessThanOrEqual(100);
        }
      }),
    );
  });

  it("adding a finding never raises the score, a category score or the grade", () => {
    fc.assert(
      fc.property(subjectsArb, fc.nat(), findingArb, (subjects, pick, extra) => {
        const before = scorePractice(subjects);
        if (!before) return;
        // The finding lands in a category that already has data (a category without data has no score to raise).
        const withData = Object.keys(before.categories) as CategoryName[];
        const finding = { ...extra, category: withData[pick % withData.length]! };
        const i = pick % subjects.length;
        const after = scorePractice(
          subjects.map((s, j) => (j === i ? { ...s, findings: [...s.findings, finding] } : s)),
        )!;
        expect(after.compliance_score).toBeLessThanOrEqual(before.compliance_score);
        expect(RANK[after.grade]).toBeGreaterThanOrEqual(RANK[before.grade]);
        for (const [name, c] of Object.entries(before.categories)) {
          expect(after.categories[name as CategoryName]!.score).toBeLessThanOrEqual(c!.score);
        }
      }),
    );
  });

  it("the order of subjects, categories and findings never changes the result", () => {
    fc.assert(
      fc.property(subjectsArb, fc.integer(), (subjects, seed) => {
        const shuffle = <T>(xs: readonly T[], salt: number): T[] =>
          xs
            .map((x, i) => ({ x, k: Math.sin(seed + salt * 31 + i * 7919) }))
            .sort((a, b) => a.k - b.k)
            .map((e) => e.x);
        const reordered = shuffle(subjects, 1).map((s, i) => ({
          ...s,
          categories: shuffle(s.categories, i + 2),
          findings: shuffle(s.findings, i + 100),
        }));
        const a = scorePractice(subjects);
        const b = scorePractice(reordered);
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      }),
    );
  });

  it("splitting one host's findings across more hosts never raises a category (weakest host)", () => {
    fc.assert(
      fc.property(fc.array(findingArb, { maxLength: 10 }), (findings) => {
        const one = scorePractice([host("a", findings)])!;
        const two = scorePractice([host("a", findings), host("b", [])])!;
        expect(two).toEqual(one);
      }),
    );
  });
});
