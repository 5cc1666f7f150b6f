import type { FindingParsed, Source } from "@hcs/protocol";
import { CompiledQuery, type Transaction } from "kysely";
import type { Database, FindingsTable } from "../store/schema.js";
import type { Pace } from "../util/time-slicer.js";

// Rows per statement: one statement of 100 rows costs SQLite ~1 ms (10 µs a row, a tenth of a row's cost as its
// own query-builder statement) and stays far below both engines' parameter limits (SQLite 32,766; PostgreSQL 65,535).
const ROWS_PER_STATEMENT = 100;
const IDS_PER_STATEMENT = 500;

// Column order of the statement text and of its parameters.
const COLUMNS = [
  "npi",
  "source",
  "subject",
  "finding_id",
  "check_id",
  "category",
  "severity",
  "title",
  "detail",
  "evidence",
  "remediation",
  "controls",
  "host",
  "grade_cap",
  "first_seen",
  "last_seen",
  "resolved_at",
  "phase",
] as const satisfies readonly (keyof FindingsTable)[];
// A repeated finding keeps its first_seen; everything else is the latest report.
const UPDATED = COLUMNS.filter((c) => !["npi", "source", "subject", "finding_id", "first_seen"].includes(c));

/** A finding with the scanner phase that reported it (internal findings only). */
export type PhasedFinding = FindingParsed & { readonly phase?: string };

/** An open finding that a new assessment did not report. */
export interface UnreportedFinding {
  readonly check_id: string;
  readonly phase: string | null;
  readonly host: string | null;
}

export interface SubjectFindings {
  readonly npi: string;
  readonly source: Source;
  readonly subject: string;
  readonly findings: readonly PhasedFinding[];
  /** ISO time of the assessment: first_seen of new findings, last_seen of all, resolved_at of the vanished. */
  readonly at: string;
  /**
   * Whether the assessment examined what an unreported open finding is about, so that the finding is gone (it is
   * resolved) rather than not looked at (it stays open). Absent: the assessment examined the whole subject.
   */
  readonly examined?: (finding: UnreportedFinding) => boolean;
}

/**
 * Writes one subject's reported findings (new ones inserted, repeated ones updated keeping first_seen, a finding
 * reported twice counted once) and marks its open findings that were not reported as resolved. Multi-row
 * statements, with `pace` between them so a large assessment does not hold the event loop.
 */
export async function writeSubjectFindings(trx: Transaction<Database>, input: SubjectFindings, pace: Pace) {
  const findings = uniqueById(input.findings);
  const open = await trx
    .selectFrom("findings")
    .select(["finding_id", "check_id", "phase", "host"])
    .where("npi", "=", input.npi)
    .where("source", "=", input.source)
    .where("subject", "=", input.subject)
    .where("resolved_at", "is", null)
    .execute();

  // The statement text is compiled once per size by the query builder (the dialect's placeholders and quoting) and
  // run with each chunk's parameters; compiling every row's values costs as much again as running the statement.
  const texts = new Map<number, string>();
  for (let start = 0; start < findings.length; start += ROWS_PER_STATEMENT) {
    await pace();
    const chunk = findings.slice(start, start + ROWS_PER_STATEMENT).map((f) => findingRow(input, f));
    let text = texts.get(chunk.length);
    if (!text) {
      const compiled = upsertStatement(trx, chunk).compile();
      // Every value must be a parameter, in COLUMNS order, for the text to be reused with other values.
      if (compiled.parameters.length !== chunk.length * COLUMNS.length)
        throw new Error("findings upsert: expected one parameter per column and row");
      text = compiled.sql;
      texts.set(chunk.length, text);
    }
    await trx.executeQuery(
      CompiledQuery.raw(
        text,
        chunk.flatMap((row) => COLUMNS.map((c) => row[c])),
      ),
    );
  }

  // Resolved by id rather than by `finding_id not in (every reported id)`: that list would exceed SQLite's
  // parameter limit for a large upload, and few findings usually vanish between two scans.
  const reported = new Set(findings.map((f) => f.id));
  const examined = input.examined ?? (() => true);
  const vanished = open.filter((r) => !reported.has(r.finding_id) && examined(r)).map((r) => r.finding_id);
  for (let start = 0; start < vanished.length; start += IDS_PER_STATEMENT) {
    await pace();
    await trx
      .updateTable("findings")
      .set({ resolved_at: input.at })
      .where("npi", "=", input.npi)
      .where("source", "=", input.source)
      .where("subject", "=", input.subject)
      .where("finding_id", "in", vanished.slice(start, start + IDS_PER_STATEMENT))
      .execute();
  }
  // The caller goes on to recompute the grade (one read of every open finding of the practice): a fresh slice.
  await pace();
}

function uniqueById(findings: readonly PhasedFinding[]): PhasedFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => !seen.has(f.id) && seen.add(f.id));
}

function findingRow(input: SubjectFindings, f: PhasedFinding): FindingsTable {
  return {
    npi: input.npi,
    source: input.source,
    subject: input.subject,
    finding_id: f.id,
    check_id: f.check_id,
    category: f.category,
    severity: f.severity,
    title: f.title,
    detail: f.detail,
    evidence: JSON.stringify(f.evidence),
    remediation: f.remediation,
    controls: JSON.stringify(f.controls),
    host: f.host ?? null,
    grade_cap: f.grade_cap ?? null,
    first_seen: input.at,
    last_seen: input.at,
    resolved_at: null,
    phase: f.phase ?? null,
  };
}

function upsertStatement(trx: Transaction<Database>, rows: readonly FindingsTable[]) {
  return (
    trx
      .insertInto("findings")
      // Keys in COLUMNS order: the query builder orders the columns (and so the parameters) by the first row's keys.
      .values(rows.map((row) => Object.fromEntries(COLUMNS.map((c) => [c, row[c]])) as unknown as FindingsTable))
      .onConflict((oc) =>
        oc
          .columns(["npi", "source", "subject", "finding_id"])
          .doUpdateSet((eb) => Object.fromEntries(UPDATED.map((c) => [c, eb.ref(`excluded.${c}`)]))),
      )
  );
}
