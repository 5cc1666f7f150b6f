import { GradeRecordSchema, NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { ServiceError } from "../../errors.js";
import { defineOperation } from "../../operations/operation.js";
import { countBySeverity, gradeForNpi, openFindings } from "../../services/grades.js";
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
      grade: GradeRecordSchema.nullable(),
      open_findings: z.object({ critical: count, high: count, medium: count, low: count, info: count }),
    }),
  })
  .meta({ id: "PracticeStatus", description: "Practice profile and compliance status" });

export const practiceOperation = defineOperation({
  id: "getPractice",
  group: "a",
  summary: "Practice profile and compliance status",
  description:
    "With `?npi=`, that practice (it must belong to the key's account); without it, the account's only practice.",
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
    const grade = await gradeForNpi(deps, practice.npi).catch((err: unknown) => {
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
    });
  },
});
