import { type CategoryName, type ComplianceDelta, ComplianceDeltaSchema, type GradeRecord } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import type { ServiceDeps } from "./deps.js";
import { getOwnedPractice } from "./practices.js";

export interface DeltaQuery {
  readonly npi: string;
  readonly accountId: string;
  readonly since?: string;
  readonly from?: string;
  readonly to?: string;
}

/** Assessment ids are the grade history's row ids: every grade computed after a scan or an upload is a snapshot. */
const assessmentId = (id: number) => `asm_${id}`;
const rowIdOf = (assessment: string) => Number(assessment.slice(4));

type GradeRow = { id: number; computed_at: string; scan_date: string };

/**
 * What changed for a practice between two of its assessments: score and grade, each category's score, and the
 * findings first seen or resolved between the two. Without `from`/`since` the latest assessment is compared with
 * the one before it; with `since`, the assessment current at that time with the latest; `to` defaults to the latest.
 * Findings are dated by their own first_seen and resolved_at, so a finding that was resolved and later came back
 * counts as new again only from its first sighting.
 */
export async function complianceDeltaFor(deps: ServiceDeps, q: DeltaQuery): Promise<ComplianceDelta> {
  await getOwnedPractice(deps, q.npi, q.accountId);
  const db = deps.store.db;
  // The history's times only; the two records compared are read afterwards.
  const rows = (await db
    .selectFrom("grades")
    .select(["id", "computed_at", "scan_date"])
    .where("npi", "=", q.npi)
    .orderBy("id", "desc")
    .execute()) as GradeRow[];
  if (rows.length === 0) throw new ServiceError("no_grade_yet", `practice ${q.npi} has not been assessed yet`);
  const byId = (assessment: string, field: string) => {
    const row = rows.find((r) => Number(r.id) === rowIdOf(assessment));
    if (!row) throw new ServiceError("not_found", `no assessment ${assessment} of practice ${q.npi}`, { field });
    return row;
  };
  const to = q.to ? byId(q.to, "to") : rows[0]!;
  let from: GradeRow;
  if (q.from) from = byId(q.from, "from");
  else if (q.since) from = rows.find((r) => r.computed_at <= q.since!) ?? rows.at(-1)!;
  else from = rows.find((r) => r.id < to.id) ?? to;
  if (from.id > to.id)
    throw new ServiceError("invalid_query", "from must be an assessment before to", {
      issues: [{ path: "from", message: "later than to" }],
    });

  const records = new Map(
    (await db.selectFrom("grades").select(["id", "record"]).where("id", "in", [from.id, to.id]).execute()).map((r) => [
      Number(r.id),
      JSON.parse(r.record) as GradeRecord,
    ]),
  );
  const a = records.get(from.id)!;
  const b = records.get(to.id)!;
  const names = [...new Set([...Object.keys(a.categories), ...Object.keys(b.categories)])].sort() as CategoryName[];
  const categories = Object.fromEntries(
    names.map((n) => {
      const x = a.categories[n]?.score ?? null;
      const y = b.categories[n]?.score ?? null;
      return [n, { from: x, to: y, change: x !== null && y !== null ? y - x : null }];
    }),
  );
  const changed = await db
    .selectFrom("findings")
    .select(["finding_id", "source", "category", "severity", "title", "host", "first_seen", "resolved_at"])
    .where("npi", "=", q.npi)
    .where((eb) =>
      eb.or([
        eb.and([eb("first_seen", ">", from.computed_at), eb("first_seen", "<=", to.computed_at)]),
        eb.and([eb("resolved_at", ">", from.computed_at), eb("resolved_at", "<=", to.computed_at)]),
      ]),
    )
    .execute();
  const view = (f: (typeof changed)[number], at: string) => ({
    id: f.finding_id,
    source: f.source,
    category: f.category,
    severity: f.severity,
    title: f.title,
    ...(f.host ? { host: f.host } : {}),
    at,
  });
  const point = (r: GradeRow, g: GradeRecord) => ({
    assessment_id: assessmentId(r.id),
    computed_at: r.computed_at,
    scan_date: r.scan_date,
    compliance_score: g.compliance_score,
    grade: g.grade,
    scoring_version: g.scoring_version,
  });
  return ComplianceDeltaSchema.parse({
    npi: q.npi,
    from: point(from, a),
    to: point(to, b),
    score_change: b.compliance_score - a.compliance_score,
    grade_change: a.grade === b.grade ? null : `${a.grade}→${b.grade}`,
    categories,
    new_findings: changed
      .filter((f) => f.first_seen > from.computed_at && f.first_seen <= to.computed_at)
      .map((f) => view(f, f.first_seen)),
    resolved_findings: changed
      .filter((f) => f.resolved_at !== null && f.resolved_at > from.computed_at && f.resolved_at <= to.computed_at)
      .map((f) => view(f, f.resolved_at!)),
  });
}
