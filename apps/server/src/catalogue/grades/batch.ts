import { type BatchResult, type GradeRecord, NpiSchema } from "@hcs/protocol";
import { bindOperation } from "../../operations/operation.js";
import { notYetAssessedInsteadOf } from "../../services/directory/lookup.js";
import { gradeJsonsForNpis } from "../../services/grades.js";
import { batchDeclaration } from "./batch.declaration.js";

export const batchOperation = bindOperation(batchDeclaration, async (input, call) => {
  const npis = [...new Set(input.npis)];
  const lookups = await gradeJsonsForNpis(
    call.deps,
    npis.filter((n) => NpiSchema.safeParse(n).success),
  );
  const results: BatchResult["results"] = await Promise.all(
    npis.map(async (npi): Promise<BatchResult["results"][number]> => {
      const lookup = lookups.get(npi);
      if (!lookup) {
        return {
          npi,
          ok: false,
          error: { code: "invalid_npi", message: "npi must be 10 digits with a valid check digit" },
        };
      }
      if (lookup.ok) return { npi, ok: true, grade: JSON.parse(lookup.json) as GradeRecord };
      // The single lookup's answer for a practice without a grade: not_yet_assessed (free) when the directory holds it.
      const directory = await notYetAssessedInsteadOf(call.deps.store.db, npi, lookup.error.code);
      if (directory) return { npi, ok: true, grade: directory };
      return { npi, ok: false, error: { code: lookup.error.code, message: lookup.error.message } };
    }),
  );
  call.setResource(`practices:${npis.length}`);
  // Charged per grade record; a directory NPI's not_yet_assessed is free, as the single lookup's.
  const graded = [...lookups.values()].filter((l) => l.ok).length;
  return { operation: "grade" as const, results, graded };
});
