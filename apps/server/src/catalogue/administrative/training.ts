import { NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import {
  recordsFromCsv,
  recordTraining,
  TrainingRecordsInputSchema,
  TrainingStatusSchema,
  trainingStatus,
} from "../../administrative/training.js";
import { ServiceError } from "../../errors.js";
import { readRawBody } from "../../http/body.js";
import { jsonBodyOf } from "../../http/rest-binding.js";
import type { HcsContext } from "../../http/state.js";
import { defineOperation } from "../../operations/operation.js";
import { practiceOfCaller } from "../../services/practice-of-caller.js";

export const trainingStatusOperation = defineOperation({
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
  implemented: true,
  rest: { method: "get", path: "/v1/training/status" },
  async run({ npi }, call) {
    const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
    call.setResource(`practice:${practice.npi}`);
    return trainingStatus(call.deps, practice.npi);
  },
});

/** JSON as any POST, or the roster CSV (`Content-Type: text/csv`, the practice in `?npi=`). */
async function trainingInput(ctx: HcsContext): Promise<unknown> {
  const type = String(ctx.get("Content-Type")).split(";")[0]!.trim().toLowerCase();
  const query = typeof ctx.query.npi === "string" ? { npi: ctx.query.npi } : {};
  if (type === "text/csv") {
    const text = (await readRawBody(ctx)).toString("utf8");
    return { ...query, csv: text };
  }
  const body = await jsonBodyOf(ctx);
  return typeof body === "object" && body !== null && !Array.isArray(body) ? { ...query, ...body } : body;
}

export const trainingRecordsOperation = defineOperation({
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
  implemented: true,
  rest: { method: "post", path: "/v1/training/records", status: 201, input: trainingInput },
  async run(input, call) {
    const practice = await practiceOfCaller(call.deps, call.caller!.accountId, input.npi);
    call.setResource(`practice:${practice.npi}`);
    const records = "csv" in input ? recordsFromCsv(input.csv) : input;
    if (records.members.length + records.completions.length === 0)
      throw new ServiceError("invalid_body", "the CSV has no rows");
    await recordTraining(call.deps, practice.npi, records);
    await refreshAdministrativeAssessment(call.deps, practice.npi);
    return trainingStatus(call.deps, practice.npi);
  },
});
