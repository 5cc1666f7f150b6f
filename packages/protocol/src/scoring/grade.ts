import type { Grade } from "../categories.js";

/** Lowest score of each grade (A ≥ 90, B ≥ 80, C ≥ 70, D ≥ 60, F below). */
export const GRADE_THRESHOLDS = [
  { grade: "A", min: 90 },
  { grade: "B", min: 80 },
  { grade: "C", min: 70 },
  { grade: "D", min: 60 },
  { grade: "F", min: 0 },
] as const satisfies readonly { grade: Grade; min: number }[];

/** Letter grade for a 0–100 integer score. */
export function gradeForScore(score: number): Grade {
  if (!Number.isFinite(score) || score < 0 || score > 100) throw new RangeError(`score out of range: ${score}`);
  for (const t of GRADE_THRESHOLDS) if (score >= t.min) return t.grade;
  return "F";
}

/** Highest score that still earns `grade` (the ceiling a grade cap lowers the score to). */
export function gradeCeiling(grade: Grade): number {
  const i = GRADE_THRESHOLDS.findIndex((t) => t.grade === grade);
  return i <= 0 ? 100 : GRADE_THRESHOLDS[i - 1]!.min - 1;
}

const RANK: Record<Grade, number> = { A: 0, B: 1, C: 2, D: 3, F: 4 };

/** The worse of two grades. */
export function worseGrade(a: Grade, b: Grade): Grade {
  return RANK[a] >= RANK[b] ? a : b;
}

/** True when `grade` is at least as good as `floor` (for --fail-under). */
export function gradeAtLeast(grade: Grade, floor: Grade): boolean {
  return RANK[grade] <= RANK[floor];
}
