import { describe, expect, it } from "vitest";
import { evidenceDeclaration } from "../catalogue/audit/audit.declaration.js";
import { batchDeclaration } from "../catalogue/grades/batch.declaration.js";
import { gradeDeclaration } from "../catalogue/grades/grade.declaration.js";
import { summarizeOutput } from "./summaries.js";

describe("tool result summaries", () => {
  it("says what a batch found, NPI by NPI", () => {
    const grade = { grade: "B", compliance_score: 84 };
    const text = summarizeOutput(batchDeclaration, {
      operation: "grade",
      graded: 1,
      results: [
        { npi: "1234567893", ok: true, grade },
        { npi: "1234567890", ok: false, error: { code: "invalid_npi", message: "…" } },
      ],
    });
    expect(text).toBe("Grades for 2 NPIs: 1 graded — 1234567893 B (84). No grade for 1234567890: invalid_npi.");
  });

  it("falls back to a generic sentence for a method without a summary, or an output it did not expect", () => {
    expect(summarizeOutput(evidenceDeclaration, { npi: "1234567893", requirements: [] })).toBe(
      "hipaa.evidence succeeded; the full result is attached (npi, requirements).",
    );
    expect(summarizeOutput(gradeDeclaration, { unexpected: true })).toMatch(/^hipaa\.grade succeeded/);
  });
});
