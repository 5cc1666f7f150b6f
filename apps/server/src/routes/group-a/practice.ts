import { GradeRecordSchema, NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { ServiceError } from "../../errors.js";
import type { ServiceDeps } from "../../services/deps.js";
import { countBySeverity, gradeForNpi, openFindings } from "../../services/grades.js";
import { getOwnedPractice, listPractices } from "../../services/practices.js";
import { zodIssues } from "../../util/parse-json.js";
import { defineRoute } from "../route.js";

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

export const practiceStatusRoute = defineRoute({
  method: "get",
  path: "/v1/practice",
  group: "a",
  operationId: "getPractice",
  summary: "Practice profile and compliance status",
  description:
    "With `?npi=`, that practice (it must belong to the key's account); without it, the account's only practice.",
  responses: { 200: { description: "The practice and its compliance status", schema: PracticeStatusSchema } },
  errors: [
    "invalid_query",
    "invalid_npi",
    "forbidden",
    "not_found",
    "missing_credentials",
    "invalid_credentials",
    "plan_required",
    "rate_limited",
  ],
  async handler(ctx, deps) {
    const caller = ctx.state.caller!;
    const query = QuerySchema.safeParse(ctx.query);
    if (!query.success) {
      const bad = query.error.issues[0]?.path[0] === "npi";
      throw new ServiceError(
        bad ? "invalid_npi" : "invalid_query",
        bad ? "npi must be 10 digits with a valid check digit" : "unknown query parameters",
        {
          issues: zodIssues(query.error),
        },
      );
    }
    const practice = query.data.npi
      ? await getOwnedPractice(deps, query.data.npi, caller.accountId)
      : await onlyPracticeOf(deps, caller.accountId);
    ctx.state.auditResource = `practice:${practice.npi}`;
    const grade = await gradeForNpi(deps, practice.npi).catch((err: unknown) => {
      if (err instanceof ServiceError && err.code === "no_grade_yet") return null;
      throw err;
    });
    const bySeverity = countBySeverity(await openFindings(deps.store.db, practice.npi));
    ctx.body = PracticeStatusSchema.parse({
      npi: practice.npi,
      name: practice.name,
      domain: practice.domain,
      website: practice.website,
      registered_at: practice.created_at,
      compliance: { grade, open_findings: bySeverity },
    });
  },
});

/** The account's practice when it has exactly one (the listing already holds the whole row). */
async function onlyPracticeOf(deps: ServiceDeps, accountId: string) {
  const owned = await listPractices(deps, accountId);
  if (owned.length === 0) throw new ServiceError("not_found", "no practice is registered to this account");
  if (owned.length > 1) {
    throw new ServiceError("invalid_query", "this account has several practices; pass ?npi=", {
      npis: owned.map((p) => p.npi),
    });
  }
  return owned[0]!;
}
