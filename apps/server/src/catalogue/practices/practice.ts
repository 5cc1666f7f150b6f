import { NpiSchema, OwnerGradeRecordSchema, RequirementStateSchema } from "@hcs/protocol";
import { z } from "zod";
import { administrativeFindings, administrativeRecordStates } from "../../administrative/evaluation.js";
import { PracticeProfileSchema, readProfile } from "../../administrative/profile.js";
import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { readAdministrativeSnapshot } from "../../administrative/snapshot.js";
import { ServiceError } from "../../errors.js";
import { defineOperation } from "../../operations/operation.js";
import { complianceStateFor } from "../../services/compliance-state.js";
import { countBySeverity, openFindings, ownerGradeForNpi } from "../../services/grades.js";
import { practiceOfCaller } from "../../services/practice-of-caller.js";

const QuerySchema = z.strictObject({ npi: NpiSchema.optional() });

const count = z.int().min(0);
export const PracticeStatusSchema = z
  .object({
    npi: NpiSchema,
    name: z.string(),
    domain: z.string(),
    website: z.string().nullable(),
    registered_at: z.iso.datetime(),
    compliance: z.object({
      grade: OwnerGradeRecordSchema.nullable(),
      open_findings: z.object({ critical: count, high: count, medium: count, low: count, info: count }),
    }),
    /** The 13 requirements (hipaa.compliance_state) in brief. */
    requirements: z.object({
      summary: z.object({ met: count, partial: count, not_met: count, unknown: count }),
      items: z.array(z.object({ number: z.int(), id: z.string(), title: z.string(), state: RequirementStateSchema })),
    }),
    /** The administrative records kept in HCS and what they show (docs/administrative.md). */
    administrative: z.object({
      profile: PracticeProfileSchema,
      records: z.record(
        z.string(),
        z.object({ state: RequirementStateSchema, detail: z.string(), assessed_at: z.iso.datetime().nullable() }),
      ),
    }),
  })
  .meta({ id: "PracticeStatus", description: "Practice profile and compliance status" });

export const practiceOperation = defineOperation({
  id: "getPractice",
  group: "a",
  access: { rule: "owner", of: "practice", field: "npi", optional: true },
  example: { npi: "1234567893" },
  summary: "Practice profile, compliance status and administrative state",
  description:
    "The profile, the grade, open findings by severity, the 13 requirements in brief and the state of the " +
    "administrative records (risk assessment, policies, training, BAAs, incidents). With `?npi=`, that practice (it " +
    "must belong to the key's account); without it, the account's only practice.",
  input: QuerySchema,
  output: PracticeStatusSchema,
  errors: ["invalid_query", "invalid_npi", "forbidden", "not_found"],
  readOnly: true,
  openWorld: false,
  implemented: true,
  rest: { method: "get", path: "/v1/practice" },
  async run(input, call) {
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
          Object.entries(records).map(([k, v]) => [
            k,
            { state: v.state, detail: v.detail, assessed_at: v.assessed_at },
          ]),
        ),
      },
    });
  },
});
