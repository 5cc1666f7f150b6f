import { CREDIT_PRICES, GradeLookupSchema, NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { declareOperation, PreserializedJson } from "../../operations/operation.js";

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
  rest: { method: "get", path: "/v1/a2a/grade/:npi" },
});
