import {
  BATCH_MAX_NPIS,
  BatchRequestSchema,
  type BatchResult,
  BatchResultSchema,
  CREDIT_PRICES,
  type GradeRecord,
  NpiSchema,
} from "@hcs/protocol";
import { defineOperation } from "../../operations/operation.js";
import { gradeJsonsForNpis } from "../../services/grades.js";

export const batchOperation = defineOperation({
  id: "batchGrades",
  method: "hipaa.batch",
  group: "b",
  access: { rule: "any_key" },
  example: { npis: ["1234567893", "1245319599"], operation: "grade" },
  summary: "Grades of up to 100 practices in one call",
  description:
    `Up to ${BATCH_MAX_NPIS} NPIs (operation \`grade\`): one result per distinct NPI, the grade record or the error ` +
    "for that NPI (invalid_npi, npi_not_found, no_grade_yet). " +
    `Costs ${CREDIT_PRICES.grade} credits per NPI that has a grade, charged together: when the balance does not cover ` +
    "them all, the whole call is refused with 402 and nothing is charged.",
  input: BatchRequestSchema,
  output: BatchResultSchema,
  price: {
    kind: "computed",
    operation: "grade",
    describe: `${CREDIT_PRICES.grade} credits per NPI that has a grade`,
    credits: (_input: unknown, output: BatchResult) => output.graded * CREDIT_PRICES.grade,
  },
  errors: [],
  readOnly: true,
  openWorld: false,
  implemented: true,
  rest: { method: "post", path: "/v1/a2a/batch" },
  async run(input, call) {
    const npis = [...new Set(input.npis)];
    const lookups = await gradeJsonsForNpis(
      call.deps,
      npis.filter((n) => NpiSchema.safeParse(n).success),
    );
    const results: BatchResult["results"] = npis.map((npi) => {
      const lookup = lookups.get(npi);
      if (!lookup) {
        return {
          npi,
          ok: false,
          error: { code: "invalid_npi", message: "npi must be 10 digits with a valid check digit" },
        };
      }
      if (!lookup.ok) return { npi, ok: false, error: { code: lookup.error.code, message: lookup.error.message } };
      return { npi, ok: true, grade: JSON.parse(lookup.json) as GradeRecord };
    });
    call.setResource(`practices:${npis.length}`);
    return { operation: "grade" as const, results, graded: results.filter((r) => r.ok).length };
  },
});
