import {
  type CategoryName,
  type FindingParsed,
  type OwnerGradeRecord,
  OwnerGradeRecordSchema,
  SCORING_VERSION,
  type ScorableFinding,
  SEVERITIES,
  type Severity,
  type Source,
  scorePractice,
} from "@hcs/protocol";
import type { Transaction } from "kysely";
import { isServiceError, ServiceError } from "../errors.js";
import type { LatestGradeRow } from "../store/grade-cache.js";
import type { Executor } from "../store/hot-sql.js";
import { ReadBatcher } from "../store/read-batcher.js";
import type { Database, FindingsTable } from "../store/schema.js";
import { noPause, type Pace } from "../util/time-slicer.js";
import { iso, type ServiceDeps } from "./deps.js";
import { writeSubjectFindings } from "./finding-writes.js";
import { type InternalResult, internalGradeInputs } from "./internal-basis.js";
import type { ScanScopeRecord } from "./internal-coverage.js";
import { getPractice } from "./practices.js";
import { assessedSubject } from "./scoring-subject.js";

export interface AssessmentInput {
  readonly npi: string;
  readonly source: Source;
  /** The subject examined: the domain for the external scan, the host name for a scanner. */
  readonly subject: string;
  readonly categories: readonly CategoryName[];
  readonly findings: readonly FindingParsed[];
  readonly at: Date;
  readonly reference: string | null;
  /** The time the grade is computed at (internal results expire by it); `at` when absent. */
  readonly now?: Date;
}

/**
 * Stores one subject's new assessment: its findings replace that subject's previous ones (unreported findings are
 * marked resolved, repeated ones keep first_seen), then the unified grade is recomputed over every subject of the
 * practice and appended to the grades history. Runs in one transaction.
 */
export async function recordAssessment(deps: ServiceDeps, input: AssessmentInput): Promise<OwnerGradeRecord> {
  await getPractice(deps, input.npi);
  return deps.store.db.transaction().execute((trx) => recordAssessmentIn(trx, input));
}

/**
 * {@link recordAssessment} inside the caller's transaction (a job completing, an upload being stored). `pace` is
 * awaited between batches of findings, so a large scan upload lets other requests run while it is written.
 */
export async function recordAssessmentIn(
  trx: Transaction<Database>,
  input: AssessmentInput,
  pace: Pace = noPause,
): Promise<OwnerGradeRecord> {
  const practice = await trx.selectFrom("practices").select("name").where("npi", "=", input.npi).executeTakeFirst();
  if (!practice) throw new ServiceError("npi_not_found", `no practice with NPI ${input.npi} is known to this service`);
  const at = iso(input.at);
  await trx
    .insertInto("assessments")
    .values({
      npi: input.npi,
      source: input.source,
      subject: input.subject,
      categories: JSON.stringify([...new Set(input.categories)]),
      assessed_at: at,
      reference: input.reference,
    })
    .onConflict((oc) =>
      oc.columns(["npi", "source", "subject"]).doUpdateSet({
        categories: JSON.stringify([...new Set(input.categories)]),
        assessed_at: at,
        reference: input.reference,
      }),
    )
    .execute();

  await writeSubjectFindings(trx, { ...input, at }, pace);

  return computeAndStoreGrade(trx, input.npi, practice.name, at, input.now ?? input.at);
}

/** A grade record and when it must be recomputed because an internal result it counted expires (null: never). */
interface ComputedGrade {
  /** As stored: the owner's form, with the internal basis (the public form leaves it out: publicGradeJson). */
  readonly record: OwnerGradeRecord;
  readonly validUntil: string | null;
}

/**
 * The practice's grade at `now` from its stored assessments, internal results and open findings, read through `db`
 * (the store or a transaction); nothing is written. External and administrative subjects are their latest
 * assessment; the internal ones are the latest result per scanner host and phase (internalGradeInputs).
 */
async function computeGrade(db: Executor, npi: string, practiceName: string, now: Date): Promise<ComputedGrade> {
  const assessments = await db.selectFrom("assessments").selectAll().where("npi", "=", npi).execute();
  if (assessments.length === 0) throw new ServiceError("no_grade_yet", `practice ${npi} has not been scanned yet`);
  const [findings, results] = await Promise.all([
    db
      .selectFrom("findings")
      .select(["source", "subject", "category", "severity", "grade_cap"])
      .where("npi", "=", npi)
      .where("resolved_at", "is", null)
      .execute(),
    db
      .selectFrom("internal_results")
      .select(["subject", "phase", "assessed_at", "scope"])
      .where("npi", "=", npi)
      .execute(),
  ]);
  const scorable = (f: (typeof findings)[number]): ScorableFinding => ({
    category: f.category as CategoryName,
    severity: f.severity as ScorableFinding["severity"],
    grade_cap: (f.grade_cap ?? undefined) as ScorableFinding["grade_cap"],
  });
  const internal = internalGradeInputs(
    results.map(
      (r): InternalResult => ({
        subject: r.subject,
        phase: r.phase as InternalResult["phase"],
        assessed_at: r.assessed_at,
        scope: JSON.parse(r.scope) as ScanScopeRecord,
      }),
    ),
    findings.filter((f) => f.source === "internal").map((f) => ({ ...scorable(f), subject: f.subject })),
    now,
  );
  const subjects = [
    ...assessments
      .filter((a) => a.source !== "internal")
      .map((a) =>
        assessedSubject(
          a.source as Source,
          a.subject,
          JSON.parse(a.categories) as CategoryName[],
          findings.filter((f) => f.source === a.source && f.subject === a.subject).map(scorable),
        ),
      ),
    ...internal.subjects,
  ];
  const result = scorePractice(subjects);
  if (!result) throw new ServiceError("no_grade_yet", `practice ${npi} has no category with data yet`);
  const scanDate = assessments
    .map((a) => a.assessed_at)
    .sort()
    .at(-1)!;
  const record = OwnerGradeRecordSchema.parse({
    npi,
    practice_name: practiceName,
    compliance_score: result.compliance_score,
    grade: result.grade,
    categories: result.categories,
    scan_date: scanDate,
    coverage: result.coverage,
    caps_applied: result.caps_applied,
    scoring_version: result.scoring_version,
    ...(internal.basis ? { internal_basis: internal.basis } : {}),
  });
  return { record, validUntil: internal.validUntil };
}

/**
 * Recomputes a practice's grade inside `trx` after its findings changed without a new assessment (threat
 * intelligence re-evaluated them on a feed import) and appends it to the history.
 */
export async function regradeIn(
  trx: Transaction<Database>,
  npi: string,
  computedAt: string,
): Promise<OwnerGradeRecord> {
  const practice = await trx.selectFrom("practices").select("name").where("npi", "=", npi).executeTakeFirstOrThrow();
  return computeAndStoreGrade(trx, npi, practice.name, computedAt, new Date(computedAt));
}

/**
 * Recomputes the practice's grade at `now` from stored assessments, internal results and open findings, and
 * appends it to the history (computed_at: `computedAt`).
 */
export async function computeAndStoreGrade(
  trx: Transaction<Database>,
  npi: string,
  practiceName: string,
  computedAt: string,
  now: Date,
): Promise<OwnerGradeRecord> {
  const { record, validUntil } = await computeGrade(trx, npi, practiceName, now);
  await trx
    .insertInto("grades")
    .values({
      npi,
      computed_at: computedAt,
      scan_date: record.scan_date,
      compliance_score: record.compliance_score,
      grade: record.grade,
      scoring_version: record.scoring_version,
      record: JSON.stringify(record),
      valid_until: validUntil,
    })
    .execute();
  return record;
}

/**
 * The practice's current grade record as its owner reads it (with the internal basis): the latest in the history,
 * or — while it was made by an older scoring version and the start-up regrade has not replaced it yet — computed
 * from stored findings without writing (a read never appends to the history). npi_not_found for unknown practices,
 * no_grade_yet before any scan. Only for callers that own the practice (the pipeline's access rule decides).
 */
export async function ownerGradeForNpi(deps: ServiceDeps, npi: string): Promise<OwnerGradeRecord> {
  // Read from the store, not the cache: the owner's views change what they then show (see latestGradeRow).
  const lookup = await gradeLookup(deps, npi, true);
  if (!lookup.ok) throw lookup.error;
  return JSON.parse(lookup.stored) as OwnerGradeRecord;
}

/**
 * The practice's current grade record in its public form (any key may read it), as JSON text: the lookup endpoint
 * serves it as is (the record was validated when it was stored), without parsing and re-serializing on every
 * request.
 */
export async function gradeJsonForNpi(deps: ServiceDeps, npi: string): Promise<string> {
  const lookup = await gradeLookup(deps, npi);
  if (!lookup.ok) throw lookup.error;
  return lookup.json;
}

/** A grade record as text — its public form, and the stored (owner's) one — or why a practice has none. */
export type GradeLookup =
  | { readonly ok: true; readonly json: string; readonly stored: string }
  | { readonly ok: false; readonly error: ServiceError };

/** The public forms of stored records already made, per stored text object (rows stay cached, so once per change). */
const publicForms = new Map<string, string>();
const PUBLIC_FORMS_MAX = 4096;

/**
 * A stored grade record's public form: without `internal_basis` (scanner host names, network scopes), which is the
 * owner's (docs/security.md). Records without one are answered as stored.
 */
export function publicGradeJson(stored: string): string {
  // Keyed by the stored text: a cached row hands the same string object to every lookup, whose hash V8 keeps, so
  // the hot path pays one map read, not a scan of the record.
  let json = publicForms.get(stored);
  if (json === undefined) {
    json = stored;
    if (stored.includes('"internal_basis"')) {
      const { internal_basis: _owners, ...record } = JSON.parse(stored) as OwnerGradeRecord;
      json = JSON.stringify(record);
    }
    if (publicForms.size >= PUBLIC_FORMS_MAX) publicForms.clear();
    publicForms.set(stored, json);
  }
  return json;
}

const found = (stored: string): GradeLookup => ({ ok: true, json: publicGradeJson(stored), stored });

/**
 * {@link gradeJsonForNpi} for many practices at once (a batch); each answer is the stored record or the reason
 * there is none (npi_not_found, no_grade_yet).
 */
export async function gradeJsonsForNpis(deps: ServiceDeps, npis: readonly string[]): Promise<Map<string, GradeLookup>> {
  const lookups = await Promise.all(npis.map((npi) => gradeLookup(deps, npi)));
  return new Map(npis.map((npi, i) => [npi, lookups[i]!]));
}

/** A latest grade row as read, and whether the read saw committed rows only (see GradeCache.readsCommitted). */
interface GradeRowRead {
  readonly row: LatestGradeRow;
  readonly committed: boolean;
}

/** Per store: the latest grade rows, read for all the lookups of an event-loop turn at once. */
const latestGradeReads = new WeakMap<ServiceDeps["store"], ReadBatcher<string, GradeRowRead | null>>();

function latestGradeRows(deps: ServiceDeps): ReadBatcher<string, GradeRowRead | null> {
  const { store } = deps;
  let reads = latestGradeReads.get(store);
  if (!reads) {
    reads = new ReadBatcher(async (npis) => {
      const committed = store.grades.readsCommitted();
      // Hot path (every grade lookup not served from memory): the latest grade row of each practice asked for in
      // this turn.
      const rows = await store.hot.all<LatestGradeRow>(
        store.db,
        `select p.npi, p.name, g.record, g.scoring_version, g.valid_until from practices p left join grades g on g.id = (select max(id) from grades where npi = p.npi) where p.npi in (${npis.map(() => "?").join(", ")})`,
        npis,
      );
      return new Map(rows.map((row) => [row.npi, { row, committed }]));
    }, null);
    latestGradeReads.set(store, reads);
  }
  return reads;
}

/**
 * The practice's latest grade row: from the grade cache, or read (with the other lookups of this turn) and kept.
 * `fresh` reads the store whatever the cache holds: on PostgreSQL the cache is emptied when the change notification
 * arrives, a few milliseconds after a commit — also in the process that wrote — so a caller that has just changed
 * the grade (the owner's views refresh the administrative assessment first) must not read the cache.
 */
async function latestGradeRow(deps: ServiceDeps, npi: string, fresh = false): Promise<LatestGradeRow | null> {
  const cache = deps.store.grades;
  if (fresh) return (await latestGradeRows(deps).get(npi))?.row ?? null;
  const cached = cache.get(npi);
  if (cached) return cached;
  const generation = cache.generation();
  const read = await latestGradeRows(deps).get(npi);
  if (read?.committed) cache.remember(npi, read.row, generation);
  return read?.row ?? null;
}

async function gradeLookup(deps: ServiceDeps, npi: string, fresh = false): Promise<GradeLookup> {
  const row = await latestGradeRow(deps, npi, fresh);
  if (!row) {
    return {
      ok: false,
      error: new ServiceError("npi_not_found", `no practice with NPI ${npi} is known to this service`),
    };
  }
  const now = deps.now();
  const current = row.scoring_version === SCORING_VERSION;
  if (row.record && current && !(row.valid_until && row.valid_until <= iso(now))) return found(row.record);
  try {
    // An internal result the stored grade counted has expired since: the grade changed at that moment, so the
    // new one joins the history (once: the next lookups read it).
    if (row.record && current) return found(JSON.stringify(await regradeExpired(deps, npi, row.name, now)));
    // No grade stored, or one made by an older scoring version and not regraded yet: computed from the stored
    // findings, without writing (no_grade_yet when there are none).
    return found(JSON.stringify((await computeGrade(deps.store.db, npi, row.name, now)).record));
  } catch (err) {
    if (isServiceError(err)) return { ok: false, error: err };
    throw err;
  }
}

/**
 * After an upgrade that changed the scoring model, appends one grade under the new version for every practice
 * whose latest grade was made by an older one — once per version change across every process sharing the store
 * (the first process to move `server_meta.scoring_version` to this version does it; the others skip). Run at
 * start-up. Returns how many practices were regraded.
 */
export async function regradeAfterScoringChange(deps: ServiceDeps): Promise<number> {
  const db = deps.store.db;
  await db
    .insertInto("server_meta")
    .values({ key: "scoring_version", value: "" })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  const claimed = await db
    .updateTable("server_meta")
    .set({ value: SCORING_VERSION })
    .where("key", "=", "scoring_version")
    .where("value", "!=", SCORING_VERSION)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return 0;
  const stale = await db
    .selectFrom("practices as p")
    .innerJoin("grades as g", (join) =>
      join.onRef("g.npi", "=", "p.npi").on("g.id", "=", (eb) =>
        eb
          .selectFrom("grades")
          .select((e) => e.fn.max("id").as("m"))
          .whereRef("grades.npi", "=", "p.npi"),
      ),
    )
    .select(["p.npi", "p.name"])
    .where("g.scoring_version", "!=", SCORING_VERSION)
    .execute();
  const at = iso(deps.now());
  const now = deps.now();
  for (const p of stale) await db.transaction().execute((trx) => computeAndStoreGrade(trx, p.npi, p.name, at, now));
  return stale.length;
}

/**
 * Appends the grade of a practice whose latest grade counted an internal result that has expired by `now`, unless
 * another lookup did so first (then its record is answered).
 */
async function regradeExpired(deps: ServiceDeps, npi: string, name: string, now: Date): Promise<OwnerGradeRecord> {
  return deps.store.db.transaction().execute(async (trx) => {
    const latest = await trx
      .selectFrom("grades")
      .select(["record", "valid_until"])
      .where("npi", "=", npi)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    if (latest && !(latest.valid_until && latest.valid_until <= iso(now))) return JSON.parse(latest.record);
    return computeAndStoreGrade(trx, npi, name, iso(now), now);
  });
}

/** The latest stored grade record of a practice inside a transaction, or null before any. */
export async function currentGradeIn(trx: Transaction<Database>, npi: string): Promise<OwnerGradeRecord | null> {
  const row = await trx
    .selectFrom("grades")
    .select("record")
    .where("npi", "=", npi)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? (JSON.parse(row.record) as OwnerGradeRecord) : null;
}

/** A stored finding row as the API shows it (FindingSchema). */
export function findingView(r: FindingsTable) {
  return {
    id: r.finding_id,
    check_id: r.check_id,
    source: r.source,
    category: r.category,
    severity: r.severity,
    title: r.title,
    detail: r.detail,
    evidence: JSON.parse(r.evidence),
    remediation: r.remediation,
    controls: JSON.parse(r.controls),
    ...(r.host ? { host: r.host } : {}),
    ...(r.grade_cap ? { grade_cap: r.grade_cap } : {}),
    first_seen: r.first_seen,
    last_seen: r.last_seen,
  };
}

/** Open findings of a practice, newest first, read through `db` (the store or a transaction). */
export async function openFindings(db: Executor, npi: string) {
  const rows = await db
    .selectFrom("findings")
    .selectAll()
    .where("npi", "=", npi)
    .where("resolved_at", "is", null)
    .orderBy("last_seen", "desc")
    .execute();
  return rows.map(findingView);
}

/** How many findings there are of each severity, every severity present. */
export function countBySeverity(findings: readonly { readonly severity: string }[]): Record<Severity, number> {
  return Object.fromEntries(SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length])) as Record<
    Severity,
    number
  >;
}
