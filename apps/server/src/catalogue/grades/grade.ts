import { isServiceError } from "../../errors.js";
import { bindOperation, PreserializedJson } from "../../operations/operation.js";
import { notYetAssessedInsteadOf } from "../../services/directory/lookup.js";
import { gradeJsonForNpi } from "../../services/grades.js";
import { gradeDeclaration } from "./grade.declaration.js";

export const gradeOperation = bindOperation(gradeDeclaration, async ({ npi }, call) => {
  call.setResource(`practice:${npi}`);
  try {
    // Served as the stored text: it was validated against GradeRecordSchema when it was stored.
    return new PreserializedJson(await gradeJsonForNpi(call.deps, npi));
  } catch (err) {
    // No grade (an NPI no practice registered, or one not scanned yet): the directory's answer, when it holds it.
    if (!isServiceError(err)) throw err;
    const answer = await notYetAssessedInsteadOf(call.deps.store.db, npi, err.code);
    if (!answer) throw err;
    return answer;
  }
});
