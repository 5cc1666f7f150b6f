import { NpiSchema, OwnerGradeRecordSchema, RequirementStateSchema } from "@hcs/protocol";
import { z } from "zod";
import { PracticeProfileSchema } from "../../administrative/profile.js";
import { declareOperation } from "../../operations/operation.js";

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

export const practiceDeclaration = declareOperation({
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
  rest: { method: "get", path: "/v1/practice" },
});
