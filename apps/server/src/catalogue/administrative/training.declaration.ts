import { NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { TrainingRecordsInputSchema, TrainingStatusSchema } from "../../administrative/training-schemas.js";
import { declareOperation } from "../../operations/operation.js";

export const trainingStatusDeclaration = declareOperation({
  id: "getTrainingStatus",
  group: "a",
  access: { rule: "owner", of: "practice", field: "npi", optional: true },
  example: { npi: "1234567893" },
  summary: "Workforce training status: who is current, due and overdue",
  description:
    "The roster with each member's last completion and next due date (30 days after hire, then yearly), the counts " +
    "and the completion rate (current over active members). Members who left are not counted.",
  input: z.strictObject({ npi: NpiSchema.optional() }),
  output: TrainingStatusSchema,
  errors: ["invalid_npi", "forbidden", "not_found"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/training/status" },
});

export const trainingRecordsDeclaration = declareOperation({
  id: "recordTraining",
  group: "a",
  access: { rule: "owner", of: "practice", field: "npi", optional: true },
  example: {
    npi: "1234567893",
    members: [{ member_id: "m-001", name: "Front Desk", role: "reception", hired_on: "2025-01-06" }],
    completions: [{ member_id: "m-001", completed_on: "2026-01-15" }],
  },
  summary: "Load the workforce roster and training completions (JSON or CSV)",
  description:
    "JSON `{npi?, members: [{member_id, name, role, hired_on, terminated_on?}], completions: [{member_id, course?, " +
    "completed_on}]}`, or `Content-Type: text/csv` with the columns member_id, name, role, hired_on, terminated_on?, " +
    "course?, completed_on? (docs/administrative.md). Members are upserted by member_id; a repeated completion is " +
    "kept once. Answers 201 with the training status.",
  input: z.union([
    TrainingRecordsInputSchema,
    z.strictObject({ npi: NpiSchema.optional(), csv: z.string().max(10 * 1024 * 1024) }),
  ]),
  output: TrainingStatusSchema,
  errors: ["invalid_npi", "forbidden", "not_found"],
  readOnly: false,
  openWorld: false,
  rest: { method: "post", path: "/v1/training/records", status: 201, readsOwnBody: true },
});
