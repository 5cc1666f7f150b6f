import {
  type CategoryName,
  INTERNAL_RESULT_MAX_AGE_DAYS,
  type InternalBasis,
  PHASE_IDS,
  type PhaseId,
  phaseDescriptor,
  type ScorableFinding,
  type ScoringSubject,
} from "@hcs/protocol";
import type { ScanScopeRecord } from "./internal-coverage.js";

const DAY_MS = 86_400_000;

/** The latest completed result of one phase on one scanner host. */
export interface InternalResult {
  readonly subject: string;
  readonly phase: PhaseId;
  /** When the scan that produced it completed (ISO). */
  readonly assessed_at: string;
  readonly scope: ScanScopeRecord | null;
}

/** An open internal finding as scoring reads it, with the host and phase it came from. */
export interface InternalFinding extends ScorableFinding {
  readonly subject: string;
}

export interface InternalGradeInputs {
  /** One scoring subject per scanner host. */
  readonly subjects: ScoringSubject[];
  /** What they rest on; null when no scanner has completed a phase. */
  readonly basis: InternalBasis | null;
  /** When the first current result expires (the grade must be recomputed then); null when none is current. */
  readonly validUntil: string | null;
}

/**
 * The internal half of a grade at `now`, from the latest result of each phase on each scanner host (pure).
 *
 * A result younger than `maxAgeDays` is current: the categories of its phase count as examined. An older one is
 * expired — the phase reads unknown and vouches for nothing — but an open finding stands until a later result that
 * covers it shows it gone: a known problem does not expire by waiting (else not scanning would lift a grade cap).
 * Every open finding of a host therefore counts, and brings its category in with it.
 */
export function internalGradeInputs(
  results: readonly InternalResult[],
  findings: readonly InternalFinding[],
  now: Date,
  maxAgeDays: number = INTERNAL_RESULT_MAX_AGE_DAYS,
): InternalGradeInputs {
  const hosts = [...new Set([...results.map((r) => r.subject), ...findings.map((f) => f.subject)])].sort();
  if (hosts.length === 0) return { subjects: [], basis: null, validUntil: null };
  const windowMs = maxAgeDays * DAY_MS;
  let validUntil: number | null = null;
  const subjects: ScoringSubject[] = [];
  const basisHosts: InternalBasis["hosts"] = [];
  for (const host of hosts) {
    const own = results
      .filter((r) => r.subject === host)
      .sort((a, b) => PHASE_IDS.indexOf(a.phase) - PHASE_IDS.indexOf(b.phase));
    const categories = new Set<CategoryName>();
    const phases: InternalBasis["hosts"][number]["phases"] = [];
    for (const r of own) {
      const assessed = Date.parse(r.assessed_at);
      const expires = assessed + windowMs;
      const current = now.getTime() < expires;
      if (current) {
        for (const c of phaseDescriptor(r.phase).categories) categories.add(c);
        validUntil = validUntil === null ? expires : Math.min(validUntil, expires);
      }
      phases.push({
        phase: r.phase,
        state: current ? "current" : "expired",
        assessed_at: new Date(assessed).toISOString(),
        age_days: Math.max(0, Math.floor((now.getTime() - assessed) / DAY_MS)),
        expires_at: new Date(expires).toISOString(),
        ...(phaseDescriptor(r.phase).touchesNetwork && r.scope
          ? { scope: { mode: r.scope.mode, targets: [...r.scope.targets] } }
          : {}),
      });
    }
    const hostFindings = findings
      .filter((f) => f.subject === host)
      .map(
        (f): ScorableFinding => ({
          category: f.category,
          severity: f.severity,
          ...(f.grade_cap ? { grade_cap: f.grade_cap } : {}),
        }),
      );
    for (const f of hostFindings) categories.add(f.category);
    subjects.push({ source: "internal", subject: host, categories: [...categories], findings: hostFindings });
    const done = new Set(own.map((r) => r.phase));
    basisHosts.push({ host, phases, not_assessed: PHASE_IDS.filter((p) => !done.has(p)) });
  }
  return {
    subjects,
    basis: { as_of: now.toISOString(), max_age_days: maxAgeDays, hosts: basisHosts },
    validUntil: validUntil === null ? null : new Date(validUntil).toISOString(),
  };
}
