import {
  COMPLIANCE_REQUIREMENTS,
  type ComplianceState,
  ComplianceStateSchema,
  INTERNAL_RESULT_MAX_AGE_DAYS,
  type PhaseStatus,
  SEVERITIES,
  type Severity,
} from "@hcs/protocol";
import { administrativeRecordStates } from "../administrative/evaluation.js";
import { readAdministrativeSnapshotIn } from "../administrative/snapshot.js";
import { type EvidenceCoverage, readEvidenceCoverage } from "../audit/evidence-coverage.js";
import { holdsEphi } from "../readiness/host-restore.js";
import type { Executor } from "../store/hot-sql.js";
import type { Engine } from "../store/migrations/engine.js";
import type { ServiceDeps } from "./deps.js";
import { getOwnedPractice } from "./practices.js";
import { AUDIT_CONTROL_CHECKS, auditControlsItem, auditLogItem, auditTrailState } from "./requirements/audit-trail.js";
import { backupsItem, type RestoreTestRecord, restoreItem } from "./requirements/backup-restore.js";
import { combine, type EvidenceItem, type HostAssessment, type State } from "./requirements/items.js";
import { type ResultEvidence, storedResultEvidence } from "./result-evidence.js";

/** One administrative record's state as the evaluation gives it. */
export interface AdministrativeRecordState {
  readonly state: State;
  readonly detail: string;
  readonly findings: readonly string[];
  readonly assessed_at: string | null;
}

/** What the store holds about a practice, as the evaluation reads it. */
export interface PracticeEvidence {
  /** Latest assessment of each subject: the external surface (domain) and each scanner host. */
  readonly assessments: readonly {
    /** What the assessment came from: `scan:<id>` (a scanner upload) or `job:<id>` (an external scan); null if unknown. */
    readonly reference: string | null;
    readonly source: string;
    readonly subject: string;
    readonly categories: readonly string[];
    readonly assessed_at: string;
    /**
     * Internal: the host's phases with a current result, each dated by the scan that brought it, with what the
     * requirements read of it (services/result-evidence.ts); null for the other sources.
     */
    readonly phases:
      | readonly {
          readonly id: string;
          readonly status: PhaseStatus;
          readonly assessed_at?: string;
          readonly evidence?: ResultEvidence | null;
        }[]
      | null;
    /** Internal: the host's results (current or not) show it holds ePHI. */
    readonly holds_ephi?: boolean;
  }[];
  /** The practice's restore-test records (requirement 6); absent: none. */
  readonly restoreTests?: readonly RestoreTestRecord[];
  /** Where the practice's evidence records stand in the audit log (requirement 13); absent: not read. */
  readonly auditLog?: EvidenceCoverage;
  /**
   * The administrative records' states (administrative/evaluation.ts), read with the rest; absent, they read
   * `unknown` (the audit trail's always does: it is evidenced by hipaa.evidence, not by a practice record).
   */
  readonly administrative?: Partial<Record<string, AdministrativeRecordState>>;
  readonly openFindings: readonly {
    readonly id: string;
    readonly source: string;
    readonly subject: string;
    readonly check_id: string;
    readonly category: string;
    readonly severity: Severity;
  }[];
}

const rankOf = (s: Severity) => SEVERITIES.indexOf(s);

/**
 * The state one piece of evidence gives: unknown when nothing assessed it; otherwise by the worst open finding it
 * holds — critical or high: not_met; medium or low: partial; none (or information only): met.
 */
function judge(
  assessedAt: readonly string[],
  findings: PracticeEvidence["openFindings"],
  unknownDetail: string,
  assessedDetail: string,
) {
  if (assessedAt.length === 0)
    return { state: "unknown" as State, detail: unknownDetail, findings: [], assessed_at: null };
  const holding = findings.filter((f) => f.severity !== "info").sort((a, b) => rankOf(a.severity) - rankOf(b.severity));
  const worst = holding[0]?.severity;
  const state: State = !worst ? "met" : rankOf(worst) <= rankOf("high") ? "not_met" : "partial";
  const detail = worst
    ? `${assessedDetail}; ${holding.length} open finding(s), the worst ${worst}`
    : `${assessedDetail}; no open finding above information`;
  return { state, detail, findings: holding.map((f) => f.id), assessed_at: [...assessedAt].sort().at(-1)! };
}

const referencesOf = (assessments: PracticeEvidence["assessments"]) =>
  assessments.flatMap((a) => (a.reference ? [a.reference] : []));

/**
 * The 13 requirements, each with its state, the evidence behind it and when it was last verified — a
 * pure reading of what the scans, the practice's records and the audit log say (docs/api.md#compliance-state-the-13-requirements,
 * docs/administrative.md, and docs/scoring.md#9-requirements-6-and-13-restore-readiness-and-the-audit-trail). Administrative evidence reads
 * `unknown` until the practice keeps a record in HCS.
 */
export function evaluateComplianceState(npi: string, asOf: string, evidence: PracticeEvidence): ComplianceState {
  // The schema keeps what the API answers: each item's `sources` stay inside (hipaa.evidence reads them).
  return ComplianceStateSchema.parse(assessRequirements(npi, asOf, evidence));
}

/** The evaluation with, on each evidence item, the references of the assessments it read (`sources`). */
export function assessRequirements(npi: string, asOf: string, evidence: PracticeEvidence) {
  const external = evidence.assessments.filter((a) => a.source === "external");
  const internal = evidence.assessments.filter((a) => a.source === "internal");
  const hosts: HostAssessment[] = internal.map((a) => ({
    reference: a.reference,
    subject: a.subject,
    phases: (a.phases ?? []).filter((p) => p.status === "ok"),
    holds_ephi: a.holds_ephi ?? false,
  }));
  const open = evidence.openFindings.filter((f) => f.source === "internal");
  // Requirements 6 and 13 are judged on the hosts that hold ePHI, from what their phases read and the practice's
  // restore tests and audit log (requirements/backup-restore.ts, requirements/audit-trail.ts).
  const special: Partial<Record<string, () => { items: EvidenceItem[]; state: State }>> = {
    backup_restore: () => {
      const items = [
        backupsItem(hosts, open),
        restoreItem(hosts, evidence.restoreTests ?? [], open, asOf.slice(0, 10)),
      ];
      return { items, state: combine(items.map((x) => x.state)) };
    },
    audit_trail: () => {
      const controls = auditControlsItem(hosts, open);
      const log = auditLogItem(referencesOf(evidence.assessments), evidence.auditLog);
      return { items: [controls, log], state: auditTrailState(controls, log) };
    },
  };
  const requirements = COMPLIANCE_REQUIREMENTS.map((r, i) => {
    const judged = special[r.id]?.();
    const items: EvidenceItem[] =
      judged?.items ??
      r.evidence.map((e): EvidenceItem => {
        if (e.kind === "phase") {
          const ran = internal.filter((a) => a.phases?.some((p) => p.id === e.phase && p.status === "ok"));
          const subjects = new Set(ran.map((a) => a.subject));
          // The audit controls are requirement 13's, which judges them on the hosts that hold ePHI.
          const findings = evidence.openFindings.filter(
            (f) =>
              f.source === "internal" &&
              subjects.has(f.subject) &&
              f.check_id.startsWith(`${e.phase}.`) &&
              !AUDIT_CONTROL_CHECKS.has(f.check_id),
          );
          const hosts = `${ran.length} of ${internal.length} scanner host(s)`;
          return {
            kind: e.kind,
            ref: e.phase,
            sources: referencesOf(ran),
            ...judge(
              ran.map((a) => a.phases?.find((p) => p.id === e.phase)?.assessed_at ?? a.assessed_at),
              findings,
              internal.length === 0
                ? `no internal scan has been uploaded, so the ${e.phase} phase never ran`
                : `the ${e.phase} phase has no result from the last ${INTERNAL_RESULT_MAX_AGE_DAYS} days on any scanner host`,
              `the ${e.phase} phase completed on ${hosts}`,
            ),
          };
        }
        if (e.kind === "external_check") {
          const ran = external.filter((a) => a.categories.includes(e.category));
          const subjects = new Set(ran.map((a) => a.subject));
          const findings = evidence.openFindings.filter(
            (f) => f.source === "external" && subjects.has(f.subject) && f.category === e.category,
          );
          return {
            kind: e.kind,
            ref: e.category,
            sources: referencesOf(ran),
            ...judge(
              ran.map((a) => a.assessed_at),
              findings,
              external.length === 0
                ? "no external scan has completed"
                : `the external scan could not assess ${e.category.replace(/_/g, " ")}`,
              `the external scan assessed ${e.category.replace(/_/g, " ")}`,
            ),
          };
        }
        if (e.kind === "audit_log") throw new Error("the audit log is requirement 13's evidence, judged above");
        const record = evidence.administrative?.[e.record];
        if (record) {
          return {
            kind: e.kind,
            ref: e.record,
            sources: [] as string[],
            state: record.state,
            detail: record.detail,
            findings: [...record.findings],
            assessed_at: record.assessed_at,
          };
        }
        // Not assessed: said as such, never as "no records are kept".
        return {
          kind: e.kind,
          ref: e.record,
          sources: [] as string[],
          state: "unknown" as State,
          detail: `not assessed: HCS does not assess the practice's ${e.record.replace(/_/g, " ")} yet`,
          findings: [],
          assessed_at: null,
        };
      });
    const verified = items.map((x) => x.assessed_at).filter((x): x is string => x !== null);
    return {
      number: i + 1,
      id: r.id,
      title: r.title,
      state: judged?.state ?? combine(items.map((x) => x.state)),
      controls: [...r.controls],
      evidence: items,
      last_verified: verified.sort().at(-1) ?? null,
    };
  });
  const count = (s: State) => requirements.filter((r) => r.state === s).length;
  return {
    npi,
    as_of: asOf,
    summary: { met: count("met"), partial: count("partial"), not_met: count("not_met"), unknown: count("unknown") },
    requirements,
  };
}

/** Reads a practice's evidence (its owner only) and evaluates the 13 requirements. */
export async function complianceStateFor(deps: ServiceDeps, npi: string, accountId: string): Promise<ComplianceState> {
  await getOwnedPractice(deps, npi, accountId);
  return evaluateComplianceState(npi, deps.now().toISOString(), await readPracticeEvidence(deps, npi));
}

/**
 * What the store holds about a practice: its latest assessments (with phase outcomes), open findings, records,
 * restore tests and where its evidence stands in the audit log.
 */
export function readPracticeEvidence(deps: ServiceDeps, npi: string): Promise<PracticeEvidence> {
  return readPracticeEvidenceIn(deps.store.db, npi, deps.now(), deps.store.engine);
}

/**
 * {@link readPracticeEvidence} through `db` (the store, or a transaction: a scan's completion reads it with the grade
 * it records), with internal results current at `now`. `engine` is the store's: the audit log's evidence lookup
 * differs by engine (audit/logging-events.ts).
 */
export async function readPracticeEvidenceIn(
  db: Executor,
  npi: string,
  now: Date,
  engine: Engine,
): Promise<PracticeEvidence> {
  const [assessments, findings, restoreTests] = await Promise.all([
    db
      .selectFrom("assessments")
      .select(["source", "subject", "categories", "assessed_at", "reference"])
      .where("npi", "=", npi)
      .execute(),
    db
      .selectFrom("findings")
      .select(["finding_id", "source", "subject", "check_id", "category", "severity"])
      .where("npi", "=", npi)
      .where("resolved_at", "is", null)
      .execute(),
    db
      .selectFrom("restore_tests")
      .select(["id", "system", "tested_on", "time_to_restore_minutes", "outcome", "recorded_at"])
      .where("npi", "=", npi)
      .execute(),
  ]);
  // The internal half rests on the latest result of each phase on each host (docs/scanner.md, "The grade"): a phase
  // counts as run on a host while its result is current, whichever scan brought it — a narrow scan after a full one
  // changes only the phases it ran. A result older than the window reads as not run, as the grade reads it unknown.
  const results = await db
    .selectFrom("internal_results")
    .select(["subject", "phase", "assessed_at", "evidence"])
    .where("npi", "=", npi)
    .execute();
  // Current while younger than the window, as the grade counts it (services/internal-basis.ts).
  const currentFrom = new Date(now.getTime() - INTERNAL_RESULT_MAX_AGE_DAYS * 86_400_000).toISOString();
  const phasesOf = new Map<
    string,
    { id: string; status: PhaseStatus; assessed_at: string; evidence: ResultEvidence | null }[]
  >();
  // Whether a host holds ePHI is read from all its results: an expired result still shows what the host holds.
  const evidenceOf = new Map<string, (ResultEvidence | null)[]>();
  for (const r of results) {
    const evidence = storedResultEvidence(r.evidence);
    evidenceOf.set(r.subject, [...(evidenceOf.get(r.subject) ?? []), evidence]);
    if (r.assessed_at <= currentFrom) continue;
    const list = phasesOf.get(r.subject) ?? [];
    list.push({ id: r.phase, status: "ok", assessed_at: r.assessed_at, evidence });
    phasesOf.set(r.subject, list);
  }
  const references = assessments.flatMap((a) => (a.reference ? [a.reference] : []));
  const [snapshot, auditLog] = await Promise.all([
    readAdministrativeSnapshotIn(db, npi, now),
    readEvidenceCoverage(db, engine, references),
  ]);
  return {
    // Each record cites the practice's stored open findings (those the grade counted and hipaa.findings lists), not
    // a fresh evaluation's: a requirement never points at a finding no grade, report or list holds.
    administrative: administrativeRecordStates(
      snapshot,
      findings.filter((f) => f.source === "administrative").map((f) => ({ id: f.finding_id, check_id: f.check_id })),
    ),
    assessments: assessments.map((a) => ({
      reference: a.reference,
      source: a.source,
      subject: a.subject,
      categories: JSON.parse(a.categories) as string[],
      assessed_at: a.assessed_at,
      phases: a.source === "internal" ? (phasesOf.get(a.subject) ?? []) : null,
      ...(a.source === "internal" ? { holds_ephi: holdsEphi(evidenceOf.get(a.subject) ?? []) } : {}),
    })),
    openFindings: findings.map((f) => ({ ...f, id: f.finding_id, severity: f.severity as Severity })),
    restoreTests: restoreTests.map((r) => ({
      id: r.id,
      system: r.system,
      tested_on: r.tested_on,
      minutes: r.time_to_restore_minutes,
      succeeded: r.outcome === "succeeded",
      recorded_at: r.recorded_at,
    })),
    auditLog,
  };
}
