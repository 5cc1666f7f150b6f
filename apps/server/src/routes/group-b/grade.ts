import { CREDIT_PRICES, GradeRecordSchema, NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { defineOperation, PreserializedJson } from "../../operations/operation.js";
import { gradeJsonForNpi } from "../../services/grades.js";

export const NpiInputSchema = z.strictObject({ npi: NpiSchema });

export const gradeOperation = defineOperation({
  id: "getGrade",
  method: "hipaa.grade",
  group: "b",
  access: { rule: "any_key" },
  example: { npi: "1234567893" },
  summary: "Look up a practice's compliance score and letter grade",
  description:
    "The unified grade record of a practice by NPI: 0–100 score, A–F grade, per-category scores and weights, " +
    "coverage of external, internal and administrative data, caps applied and the scoring version. A grade is a " +
    `rating any valid key may look up. Costs ${CREDIT_PRICES.grade} credits, charged only when a grade is returned.`,
  input: NpiInputSchema,
  output: GradeRecordSchema,
  price: { kind: "metered", operation: "grade" },
  errors: ["invalid_npi", "npi_not_found", "no_grade_yet"],
  readOnly: true,
  openWorld: false,
  implemented: true,
  rest: { method: "get", path: "/v1/a2a/grade/:npi" },
  async run({ npi }, call) {
    call.setResource(`practice:${npi}`);
    // Served as the stored text: it was validated against GradeRecordSchema when it was stored.
    return new PreserializedJson(await gradeJsonForNpi(call.deps, npi));
  },
});
