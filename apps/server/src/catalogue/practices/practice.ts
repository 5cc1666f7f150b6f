import { administrativeFindings, administrativeRecordStates } from "../../administrative/evaluation.js";
import { readProfile } from "../../administrative/profile.js";
import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { readAdministrativeSnapshot } from "../../administrative/snapshot.js";
import { ServiceError } from "../../errors.js";
import { bindOperation } from "../../operations/operation.js";
import { complianceStateFor } from "../../services/compliance-state.js";
import { countBySeverity, openFindings, ownerGradeForNpi } from "../../services/grades.js";
import { practiceOfCaller } from "../../services/practice-of-caller.js";
import { PracticeStatusSchema, practiceDeclaration } from "./practice.declaration.js";

export const practiceOperation = bindOperation(practiceDeclaration, async (input, call) => {
  const { deps } = call;
  const accountId = call.caller!.accountId;
  const practice = await practiceOfCaller(deps, accountId, input.npi);
  call.setResource(`practice:${practice.npi}`);
  // A record also goes out of date with time (an SRA turning 12 months old): the grade shown is brought up to date.
  await refreshAdministrativeAssessment(deps, practice.npi);
  const [state, profile] = await Promise.all([
    complianceStateFor(deps, practice.npi, accountId),
    readProfile(deps, practice.npi),
  ]);
  const snapshot = await readAdministrativeSnapshot(deps, practice.npi);
  const records = administrativeRecordStates(snapshot, administrativeFindings(snapshot));
  const grade = await ownerGradeForNpi(deps, practice.npi).catch((err: unknown) => {
    if (err instanceof ServiceError && err.code === "no_grade_yet") return null;
    throw err;
  });
  const bySeverity = countBySeverity(await openFindings(deps.store.db, practice.npi));
  return PracticeStatusSchema.parse({
    npi: practice.npi,
    name: practice.name,
    domain: practice.domain,
    website: practice.website,
    registered_at: practice.created_at,
    compliance: { grade, open_findings: bySeverity },
    requirements: {
      summary: state.summary,
      items: state.requirements.map((r) => ({ number: r.number, id: r.id, title: r.title, state: r.state })),
    },
    administrative: {
      profile,
      records: Object.fromEntries(
        Object.entries(records).map(([k, v]) => [k, { state: v.state, detail: v.detail, assessed_at: v.assessed_at }]),
      ),
    },
  });
});
