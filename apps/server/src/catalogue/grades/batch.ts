import { type BatchResult, type GradeRecord, NpiSchema } from "@hcs/protocol";
import { bindOperation } from "../../operations/operation.js";
import { gradeJsonsForNpis } from "../../services/grades.js";
import { batchDeclaration } from "./batch.declaration.js";

export const batchOperation = bindOperation(batchDeclaration, async (input, call) => {
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
});
