import { NpiSchema, SEVERITIES } from "@hcs/protocol";
import { z } from "zod";
import { WorkflowSchema } from "../../administrative/workflow-rules.js";
import { declareOperation } from "../../operations/operation.js";

const IssueSchema = z.object({
  step: z.int(),
  step_id: z.string().nullable(),
  rule: z.string(),
  severity: z.enum(SEVERITIES),
  control: z.string(),
  controls: z.array(z.string()),
  message: z.string(),
  fix: z.string(),
});

export const validateWorkflowDeclaration = declareOperation({
  id: "validateWorkflow",
  method: "hipaa.validate_workflow",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi", optional: true },
  example: {
    npi: "1234567893",
    workflow: {
      steps: [
        {
          from: "front desk",
          to: "billing service",
          system: "Claims portal",
          data_types: ["insurance"],
          transport: "https",
        },
      ],
    },
  },
  summary: "Check an ePHI workflow against HIPAA rules",
  description:
    "Steps (from, to, system, vendor?, baa?, data_types, purpose, transport, stores_data, encrypted_at_rest, " +
    "access_control, mfa) in; issues out — cleartext transport, storage without encryption, vendors without a BAA, " +
    "shared accounts, no access control, remote access without MFA, data beyond the minimum necessary for the " +
    "purpose — each with the step, the rule, its HIPAA control, a severity and a fix. With `npi` (a practice you " +
    "own) a vendor's BAA is read from the practice's records. Free.",
  input: z.strictObject({ workflow: WorkflowSchema, npi: NpiSchema.optional() }),
  output: z
    .object({ valid: z.boolean(), steps: z.int(), issues: z.array(IssueSchema) })
    .meta({ id: "WorkflowValidation", description: "Issues found in an ePHI workflow" }),
  errors: ["invalid_npi", "npi_not_found", "forbidden"],
  readOnly: true,
  openWorld: false,
  rest: { method: "post", path: "/v1/a2a/workflows/validate" },
});
