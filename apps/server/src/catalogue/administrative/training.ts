import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { recordsFromCsv, recordTraining, trainingStatus } from "../../administrative/training.js";
import { ServiceError } from "../../errors.js";
import { readRawBody } from "../../http/body.js";
import { jsonBodyOf } from "../../http/rest-binding.js";
import type { HcsContext } from "../../http/state.js";
import { bindOperation } from "../../operations/operation.js";
import { practiceOfCaller } from "../../services/practice-of-caller.js";
import { trainingRecordsDeclaration, trainingStatusDeclaration } from "./training.declaration.js";

export const trainingStatusOperation = bindOperation(trainingStatusDeclaration, async ({ npi }, call) => {
  const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
  call.setResource(`practice:${practice.npi}`);
  return trainingStatus(call.deps, practice.npi);
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

export const trainingRecordsOperation = bindOperation(
  trainingRecordsDeclaration,
  async (input, call) => {
    const practice = await practiceOfCaller(call.deps, call.caller!.accountId, input.npi);
    call.setResource(`practice:${practice.npi}`);
    const records = "csv" in input ? recordsFromCsv(input.csv) : input;
    if (records.members.length + records.completions.length === 0)
      throw new ServiceError("invalid_body", "the CSV has no rows");
    await recordTraining(call.deps, practice.npi, records);
    await refreshAdministrativeAssessment(call.deps, practice.npi);
    return trainingStatus(call.deps, practice.npi);
  },
  { input: trainingInput },
);
