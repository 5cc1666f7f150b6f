import type { GradeRecord, NotYetAssessed } from "@hcs/protocol";
import { CREDIT_PRICES, GradeLookupSchema, NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { declareOperation, PreserializedJson } from "../../operations/operation.js";
import { day, words } from "../summary-text.js";

export const NpiInputSchema = z.strictObject({ npi: NpiSchema });

export const gradeDeclaration = declareOperation({
  id: "getGrade",
  method: "hipaa.grade",
  group: "b",
  access: { rule: "any_key" },
  example: { npi: "1234567893" },
  summary: "Look up a practice's compliance score and letter grade",
  description:
    "The unified grade record of a practice by NPI: 0–100 score, A–F grade, per-category scores and weights, " +
    "coverage of external, internal and administrative data, caps applied and the scoring version. A grade is a " +
    `rating any valid key may look up. Costs ${CREDIT_PRICES.grade} credits, charged only when a grade is returned; ` +
    "a directory NPI not assessed yet answers assessment: not_yet_assessed, free.",
  input: NpiInputSchema,
  output: GradeLookupSchema,
  price: { kind: "metered", operation: "grade", unchargedWhen: (output) => !(output instanceof PreserializedJson) },
  errors: ["invalid_npi", "npi_not_found", "no_grade_yet"],
  readOnly: true,
  openWorld: false,
  summarize: gradeSummary,
  hot: true,
  rest: { method: "get", path: "/v1/a2a/grade/:npi" },
});

export function gradeSummary(g: GradeRecord | NotYetAssessed): string {
  if ("assessment" in g)
    return `${g.practice_name ?? "This practice"} (NPI ${g.npi}) is in the NPPES directory${g.directory.status === "deactivated" ? " (deactivated)" : ""} but has not been assessed yet: no grade, nothing charged.`;
  const scored = Object.entries(g.categories)
    .filter((e): e is [string, { score: number; weight: number }] => e[1] !== undefined)
    .sort((a, b) => a[1].score - b[1].score);
  const weakest = scored.slice(0, 2).map(([name, c]) => `${words(name)} ${c.score}`);
  const missing = (["external", "internal", "administrative"] as const).filter((s) => g.coverage[s].status === "none");
  return [
    `${g.practice_name} (NPI ${g.npi}) has grade ${g.grade}, ${g.compliance_score}/100, as of ${day(g.scan_date)}.`,
    weakest.length > 0 ? `Weakest: ${weakest.join(", ")}.` : "",
    g.caps_applied.length > 0
      ? `Capped at ${g.caps_applied.map((c) => `${c.max_grade} (${c.reason})`).join("; ")}.`
      : "",
    missing.length > 0 ? `No ${missing.join(" or ")} data yet, so those categories are not scored.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}
