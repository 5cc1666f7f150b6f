import { sql } from "kysely";
import type { z } from "zod";
import { ServiceError } from "../errors.js";
import type { ServiceDeps } from "../services/deps.js";
import { iso } from "../services/deps.js";
import { dateOf } from "./calendar-date.js";
import { readTrainingCsv } from "./training-csv.js";
import { CompletionSchema, MemberSchema, type TrainingRecords } from "./training-schemas.js";
import { trainingSummary } from "./training-status.js";

/** A roster CSV row that cannot be taken, by line (`field` when one field is at fault). */
export interface RosterRowProblem {
  readonly line: number;
  readonly field: string | null;
  readonly message: string;
}

/**
 * The CSV upload as the JSON records: each row a member, and a completion when it has completed_on; with every row
 * that cannot be taken (the rows' own problems, then their fields'). Rows with a problem are left out of the records.
 */
export function checkRosterCsv(text: string): {
  records: Pick<TrainingRecords, "members" | "completions">;
  rows: number;
  problems: RosterRowProblem[];
} {
  const read = readTrainingCsv(text);
  const problems: RosterRowProblem[] = read.errors.map((e) => ({ line: e.line, field: null, message: e.reason }));
  const members = new Map<string, z.output<typeof MemberSchema>>();
  const completions: z.output<typeof CompletionSchema>[] = [];
  for (const { line, row } of read.rows) {
    const member = MemberSchema.safeParse({
      member_id: row.member_id,
      name: row.name,
      role: row.role,
      hired_on: row.hired_on,
      terminated_on: row.terminated_on ?? null,
    });
    if (!member.success) {
      problems.push(fieldProblem(line, member.error));
      continue;
    }
    let completion: z.output<typeof CompletionSchema> | null = null;
    if (row.completed_on || row.course) {
      const c = CompletionSchema.safeParse({
        member_id: row.member_id,
        course: row.course,
        completed_on: row.completed_on,
      });
      if (!c.success) {
        problems.push(fieldProblem(line, c.error));
        continue;
      }
      completion = c.data;
    }
    members.set(member.data.member_id, member.data);
    if (completion) completions.push(completion);
  }
  return {
    records: { members: [...members.values()], completions },
    rows: read.rows.length + read.errors.filter((e) => e.line > 1).length,
    problems,
  };
}

/** The CSV upload as the JSON records; the first problem is a 400 naming its line. */
export function recordsFromCsv(text: string): Pick<TrainingRecords, "members" | "completions"> {
  const { records, problems } = checkRosterCsv(text);
  const first = problems[0];
  if (first)
    throw new ServiceError(
      "invalid_body",
      first.field === null
        ? `CSV line ${first.line}: ${first.message}`
        : `CSV line ${first.line}: ${first.field}: ${first.message}`,
      first.field === null ? { line: first.line } : { line: first.line, field: first.field },
    );
  return records;
}

function fieldProblem(line: number, error: z.ZodError): RosterRowProblem {
  const issue = error.issues[0]!;
  return { line, field: issue.path.join("."), message: issue.message };
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
