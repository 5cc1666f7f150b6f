import { CREDIT_PRICES, GradeRecordSchema } from "@hcs/protocol";
import { gradeJsonForNpi } from "../../services/grades.js";
import { metered } from "../metering.js";
import { NpiParamsSchema, npiParam } from "../params.js";
import { defineRoute } from "../route.js";

export const gradeLookupRoute = defineRoute({
  method: "get",
  path: "/v1/a2a/grade/:npi",
  group: "b",
  operationId: "getGrade",
  summary: "Look up a practice's compliance score and letter grade",
  description:
    "Returns the unified grade record (external + internal + administrative coverage) computed from stored findings. " +
    `Costs ${CREDIT_PRICES.grade} credits, charged only when a grade is returned.`,
  params: NpiParamsSchema,
  responses: { 200: { description: "The grade record", schema: GradeRecordSchema } },
  errors: [
    "invalid_npi",
    "npi_not_found",
    "no_grade_yet",
    "insufficient_credits",
    "missing_credentials",
    "invalid_credentials",
    "key_revoked",
    "rate_limited",
  ],
  price: "grade",
  async handler(ctx, deps) {
    const npi = npiParam(ctx);
    ctx.state.auditResource = `practice:${npi}`;
    const json = await metered(ctx, "grade", () => gradeJsonForNpi(deps, npi));
    ctx.type = "application/json";
    ctx.body = json;
  },
});
