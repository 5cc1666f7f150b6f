import { BATCH_MAX_NPIS, BatchRequestSchema, type BatchResult, BatchResultSchema, CREDIT_PRICES } from "@hcs/protocol";
import { declareOperation } from "../../operations/operation.js";
import { listed, plural } from "../summary-text.js";

export const batchDeclaration = declareOperation({
  id: "batchGrades",
  method: "hipaa.batch",
  group: "b",
  access: { rule: "any_key" },
  example: { npis: ["1234567893", "1245319599"], operation: "grade" },
  summary: "Grades of up to 100 practices in one call",
  description:
    `Up to ${BATCH_MAX_NPIS} NPIs (operation \`grade\`): one result per distinct NPI, what hipaa.grade answers for it ` +
    "(a grade record, or a directory NPI's not_yet_assessed, free) or its error. " +
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
  summarize: batchSummary,
  rest: { method: "post", path: "/v1/a2a/batch" },
});

export function batchSummary(b: BatchResult): string {
  const graded = b.results.flatMap((r) =>
    r.ok && !("assessment" in r.grade) ? [`${r.npi} ${r.grade.grade} (${r.grade.compliance_score})`] : [],
  );
  const unassessed = b.results.flatMap((r) => (r.ok && "assessment" in r.grade ? [r.npi] : []));
  const failed = b.results.flatMap((r) => (r.ok ? [] : [`${r.npi}: ${r.error.code}`]));
  return [
    `Grades for ${plural(b.results.length, "NPI")}: ${b.graded} graded${graded.length > 0 ? ` — ${listed(graded, 10)}` : ""}.`,
    unassessed.length > 0 ? `Not assessed yet (in the directory, free): ${listed(unassessed, 10)}.` : "",
    failed.length > 0 ? `No grade for ${listed(failed, 10)}.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}
