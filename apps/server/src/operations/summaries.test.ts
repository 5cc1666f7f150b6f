import { describe, expect, it } from "vitest";
import { summarizeOutput } from "./summaries.js";

describe("tool result summaries", () => {
  it("says what a batch found, NPI by NPI", () => {
    const grade = { grade: "B", compliance_score: 84 };
    const text = summarizeOutput("hipaa.batch", {
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
    expect(summarizeOutput("hipaa.evidence", { npi: "1234567893", requirements: [] })).toBe(
      "hipaa.evidence succeeded; the full result is attached (npi, requirements).",
    );
    expect(summarizeOutput("hipaa.grade", { unexpected: true })).toMatch(/^hipaa\.grade succeeded/);
  });
});
