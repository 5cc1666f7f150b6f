import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CATEGORIES, CATEGORY_NAMES } from "../categories.js";
import { GRADE_CAPS } from "./caps.js";
import { gradeCeiling } from "./grade.js";
import { SCORING_VERSION, type ScoringSubject, SEVERITY_DEDUCTIONS, scorePractice } from "./score.js";

const DOC = readFileSync(join(import.meta.dirname, "..", "..", "..", "..", "docs", "scoring.md"), "utf8");

function jsonBlock(tag: string): unknown {
  const m = DOC.match(new RegExp("```json " + tag + "\\n([\\s\\S]*?)\\n```"));
  if (!m) throw new Error(`docs/scoring.md has no \`\`\`json ${tag} block`);
  return JSON.parse(m[1]!);
}

function tableRows(firstCell: RegExp): string[][] {
  return DOC.split("\n")
    .filter((l) => l.startsWith("|"))
    .map((l) =>
      l
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    )
    .filter((cells) => firstCell.test(cells[0] ?? ""));
}

describe("docs/scoring.md", () => {
  it("the worked example's numbers are what scorePractice computes", () => {
    const input = jsonBlock("worked-example-input") as ScoringSubject[];
    const expected = jsonBlock("worked-example-result") as {
      compliance_score: number;
      grade: string;
      uncapped_score: number;
      categories: Record<string, unknown>;
      caps_applied: string[];
      coverage: Record<string, string>;
    };
    const r = scorePractice(input)!;
    expect(r.compliance_score).toBe(expected.compliance_score);
    expect(r.grade).toBe(expected.grade);
    expect(r.uncapped_score).toBe(expected.uncapped_score);
    expect(r.categories).toEqual(expected.categories);
    expect(r.caps_applied.map((c) => c.id).sort()).toEqual([...expected.caps_applied].sort());
    expect(Object.fromEntries(Object.entries(r.coverage).map(([k, v]) => [k, v.status]))).toEqual(expected.coverage);
  });

  it("names the scoring version in force", () => {
    expect(DOC).toContain(`\`${SCORING_VERSION}\``);
  });

  it("its weights table matches CATEGORIES", () => {
    const rows = tableRows(new RegExp(`^(${CATEGORY_NAMES.join("|")})$`)).filter((r) => r.length === 3);
    expect(
      Object.fromEntries(rows.map(([name, source, weight]) => [name, { source, weight: Number(weight) }])),
    ).toEqual(
      Object.fromEntries(
        CATEGORY_NAMES.map((n) => [n, { source: CATEGORIES[n].source, weight: CATEGORIES[n].weight }]),
      ),
    );
  });

  it("its deductions and caps tables match the code", () => {
    const deductions = tableRows(/^(critical|high|medium|low|info)$/).filter((r) => r.length === 2);
    expect(Object.fromEntries(deductions.map(([s, p]) => [s, Number(p)]))).toEqual(SEVERITY_DEDUCTIONS);
    const caps = tableRows(new RegExp(`^(${Object.keys(GRADE_CAPS).join("|")})$`));
    expect(Object.fromEntries(caps.map(([id, g, max]) => [id, [g, Number(max)]]))).toEqual(
      Object.fromEntries(Object.entries(GRADE_CAPS).map(([id, c]) => [id, [c.max_grade, gradeCeiling(c.max_grade)]])),
    );
  });
});
