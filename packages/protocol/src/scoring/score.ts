import {
  CATEGORIES,
  CATEGORY_NAMES,
  type CategoryName,
  type Grade,
  type Severity,
  SOURCES,
  type Source,
} from "../categories.js";
import { type AppliedCap, GRADE_CAPS, type GradeCapId } from "./caps.js";
import { gradeCeiling, gradeForScore } from "./grade.js";

/** Identifies the scoring model; stored with every grade so old grades stay explainable. */
export const SCORING_VERSION = "hcs-score-2026.3";

/** Points a category loses per finding of each severity (a category starts at 100 and stops at 0). */
export const SEVERITY_DEDUCTIONS = {
  critical: 40,
  high: 20,
  medium: 10,
  low: 5,
  info: 0,
} as const satisfies Record<Severity, number>;

/** The part of a finding that scoring reads. */
export interface ScorableFinding {
  readonly category: CategoryName;
  readonly severity: Severity;
  readonly grade_cap?: GradeCapId | undefined;
}

/**
 * One assessed subject: the practice's public surface (external), one scanner host (internal), or the
 * practice's records (administrative). `categories` are those the subject examined; a finding's category
 * counts as examined too.
 */
export interface ScoringSubject {
  readonly source: Source;
  readonly subject: string;
  readonly categories: readonly CategoryName[];
  readonly findings: readonly ScorableFinding[];
}

export type CoverageStatus = "full" | "partial" | "none";

export interface SourceCoverage {
  readonly status: CoverageStatus;
  readonly categories_with_data: CategoryName[];
  readonly categories_without_data: CategoryName[];
}

export interface CategoryScore {
  readonly score: number;
  readonly weight: number;
}

export interface ScoreResult {
  readonly compliance_score: number;
  readonly grade: Grade;
  /** The weighted average before grade caps. */
  readonly uncapped_score: number;
  readonly categories: Partial<Record<CategoryName, CategoryScore>>;
  readonly coverage: Record<Source, SourceCoverage>;
  readonly caps_applied: AppliedCap[];
  readonly scoring_version: string;
}

/** 100 minus the severity deductions of the findings, never below 0. */
export function scoreCategory(findings: readonly Pick<ScorableFinding, "severity">[]): number {
  let score = 100;
  for (const f of findings) score -= SEVERITY_DEDUCTIONS[f.severity];
  return Math.max(0, score);
}

/** The category scores of one subject, for the categories it has data for. */
function subjectCategoryScores(subject: ScoringSubject): Map<CategoryName, number> {
  const byCategory = new Map<CategoryName, Pick<ScorableFinding, "severity">[]>();
  for (const c of subject.categories) byCategory.set(c, []);
  for (const f of subject.findings) {
    const list = byCategory.get(f.category);
    if (list) list.push(f);
    else byCategory.set(f.category, [f]);
  }
  return new Map([...byCategory].map(([c, fs]) => [c, scoreCategory(fs)]));
}

/**
 * The unified score and grade over every subject (docs/scoring.md): a category's score is its weakest
 * subject's (several scanner hosts: the weakest host), the overall score is the weight-averaged mean
 * over categories with data, and grade caps lower it to the top of the capped grade's band.
 * Returns null when no category has data.
 */
export function scorePractice(subjects: readonly ScoringSubject[]): ScoreResult | null {
  const weakest = new Map<CategoryName, number>();
  const caps = new Set<GradeCapId>();
  for (const subject of subjects) {
    for (const [category, score] of subjectCategoryScores(subject)) {
      const prev = weakest.get(category);
      weakest.set(category, prev === undefined ? score : Math.min(prev, score));
    }
    for (const f of subject.findings) if (f.grade_cap) caps.add(f.grade_cap);
  }
  if (weakest.size === 0) return null;

  // Iterate the fixed category table (not the input) so input order can never change the result.
  const categories: Partial<Record<CategoryName, CategoryScore>> = {};
  let weighted = 0;
  let totalWeight = 0;
  for (const name of CATEGORY_NAMES) {
    const score = weakest.get(name);
    if (score === undefined) continue;
    const { weight } = CATEGORIES[name];
    categories[name] = { score, weight };
    weighted += score * weight;
    totalWeight += weight;
  }
  const uncapped = Math.round(weighted / totalWeight);

  const capsApplied: AppliedCap[] = [];
  let ceiling = 100;
  for (const id of Object.keys(GRADE_CAPS) as GradeCapId[]) {
    if (!caps.has(id)) continue;
    const cap = GRADE_CAPS[id];
    capsApplied.push({ id, max_grade: cap.max_grade, reason: cap.reason });
    ceiling = Math.min(ceiling, gradeCeiling(cap.max_grade));
  }
  const compliance_score = Math.min(uncapped, ceiling);

  return {
    compliance_score,
    grade: gradeForScore(compliance_score),
    uncapped_score: uncapped,
    categories,
    coverage: coverageOf(new Set(weakest.keys())),
    caps_applied: capsApplied,
    scoring_version: SCORING_VERSION,
  };
}

function coverageOf(withData: ReadonlySet<CategoryName>): Record<Source, SourceCoverage> {
  const out = {} as Record<Source, SourceCoverage>;
  for (const source of SOURCES) {
    const all = CATEGORY_NAMES.filter((c) => CATEGORIES[c].source === source);
    const have = all.filter((c) => withData.has(c));
    const missing = all.filter((c) => !withData.has(c));
    out[source] = {
      status: have.length === 0 ? "none" : missing.length === 0 ? "full" : "partial",
      categories_with_data: have,
      categories_without_data: missing,
    };
  }
  return out;
}
