import { NpiSchema } from "@hcs/protocol";
import { sql } from "kysely";
import { z } from "zod";
import { ServiceError } from "../errors.js";
import type { ServiceDeps } from "../services/deps.js";
import { iso } from "../services/deps.js";
import { CalendarDateSchema, dateOf } from "./calendar-date.js";
import { CsvError, parseTrainingCsv } from "./training-csv.js";
import { trainingSummary } from "./training-status.js";

const MemberId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._@+-]+$/, "letters, digits and . _ @ + - only");
export const DEFAULT_COURSE = "hipaa_security_awareness";

export const MemberSchema = z.strictObject({
  member_id: MemberId,
  name: z.string().trim().min(1).max(200),
  role: z.string().trim().min(1).max(100),
  hired_on: CalendarDateSchema,
  terminated_on: CalendarDateSchema.nullable().default(null),
});
export const CompletionSchema = z.strictObject({
  member_id: MemberId,
  course: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9_]+$/, "lower-case letters, digits and _")
    .default(DEFAULT_COURSE),
  completed_on: CalendarDateSchema,
});

export const TrainingRecordsInputSchema = z
  .strictObject({
    npi: NpiSchema.optional(),
    members: z.array(MemberSchema).max(10_000).default([]),
    completions: z.array(CompletionSchema).max(50_000).default([]),
  })
  .refine((r) => r.members.length + r.completions.length > 0, { message: "send members or completions" });
export type TrainingRecords = z.output<typeof TrainingRecordsInputSchema>;

/** The CSV upload as the JSON records: each row a member, and a completion when it has completed_on. */
export function recordsFromCsv(text: string): Pick<TrainingRecords, "members" | "completions"> {
  let rows: ReturnType<typeof parseTrainingCsv>;
  try {
    rows = parseTrainingCsv(text);
  } catch (err) {
    if (err instanceof CsvError) throw new ServiceError("invalid_body", `CSV ${err.message}`, { line: err.line });
    throw err;
  }
  const members = new Map<string, z.output<typeof MemberSchema>>();
  const completions: z.output<typeof CompletionSchema>[] = [];
  for (const { line, row } of rows) {
    const member = MemberSchema.safeParse({
      member_id: row.member_id,
      name: row.name,
      role: row.role,
      hired_on: row.hired_on,
      terminated_on: row.terminated_on ?? null,
    });
    if (!member.success) throw csvFieldError(line, member.error);
    members.set(member.data.member_id, member.data);
    if (row.completed_on || row.course) {
      const c = CompletionSchema.safeParse({
        member_id: row.member_id,
        course: row.course,
        completed_on: row.completed_on,
      });
      if (!c.success) throw csvFieldError(line, c.error);
      completions.push(c.data);
    }
  }
  return { members: [...members.values()], completions };
}

function csvFieldError(line: number, error: z.ZodError): ServiceError {
  const issue = error.issues[0]!;
  return new ServiceError("invalid_body", `CSV line ${line}: ${issue.path.join(".")}: ${issue.message}`, {
    line,
    field: issue.path.join("."),
  });
}

/**
 * Stores roster entries (upserted by member_id) and completions (a repeated completion is kept once); a completion
 * must name a member of the roster (stored, or in the same upload) and cannot predate the member's hire by more than
 * a year nor lie in the future.
 */
export async function recordTraining(
  deps: ServiceDeps,
  npi: string,
  records: Pick<TrainingRecords, "members" | "completions">,
) {
  const now = iso(deps.now());
  const today = dateOf(deps.now());
  await deps.store.db.transaction().execute(async (trx) => {
    for (const m of records.members) {
      await trx
        .insertInto("workforce_members")
        .values({ npi, ...m, updated_at: now })
        .onConflict((oc) =>
          oc.columns(["npi", "member_id"]).doUpdateSet({
            name: m.name,
            role: m.role,
            hired_on: m.hired_on,
            terminated_on: m.terminated_on,
            updated_at: now,
          }),
        )
        .execute();
    }
    const ids = [...new Set(records.completions.map((c) => c.member_id))];
    const known =
      ids.length === 0
        ? []
        : await trx
            .selectFrom("workforce_members")
            .select("member_id")
            .where("npi", "=", npi)
            .where("member_id", "in", ids)
            .execute();
    const knownIds = new Set(known.map((k) => k.member_id));
    for (const c of records.completions) {
      if (!knownIds.has(c.member_id))
        throw new ServiceError("invalid_body", `completion for ${c.member_id}, who is not on the roster`, {
          member_id: c.member_id,
        });
      if (c.completed_on > today)
        throw new ServiceError("invalid_body", `completion for ${c.member_id} is dated in the future`, {
          member_id: c.member_id,
        });
      await trx
        .insertInto("training_completions")
        .values({ npi, ...c, recorded_at: now })
        .onConflict((oc) => oc.columns(["npi", "member_id", "course", "completed_on"]).doNothing())
        .execute();
    }
  });
}

/** Who is due, overdue and current today, with the completion rate. */
export async function trainingStatus(deps: ServiceDeps, npi: string) {
  const db = deps.store.db;
  const [roster, completions] = await Promise.all([
    db.selectFrom("workforce_members").selectAll().where("npi", "=", npi).orderBy("member_id").execute(),
    db
      .selectFrom("training_completions")
      .select(["member_id", "course", "completed_on"])
      .where("npi", "=", npi)
      .orderBy(sql`completed_on`)
      .execute(),
  ]);
  const today = dateOf(deps.now());
  return { npi, as_of: today, ...trainingSummary(roster, completions, today) };
}

export const TrainingStatusSchema = z
  .object({
    npi: z.string(),
    as_of: z.string(),
    active_members: z.int(),
    current: z.int(),
    due: z.int(),
    overdue: z.int(),
    completion_rate: z.number(),
    members: z.array(
      z.object({
        member_id: z.string(),
        name: z.string(),
        role: z.string(),
        hired_on: z.string(),
        last_completed_on: z.string().nullable(),
        due_on: z.string(),
        state: z.enum(["current", "due", "overdue"]),
      }),
    ),
  })
  .meta({ id: "TrainingStatus", description: "Workforce training: who is current, due and overdue" });
export type TrainingStatus = z.infer<typeof TrainingStatusSchema>;
