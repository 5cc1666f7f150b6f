import type { CategoryName, ScorableFinding, ScoringSubject, Source } from "@hcs/protocol";

/**
 * One assessed subject for `scorePractice`, keeping only findings of categories the subject assessed: scoring
 * counts a finding's category as examined, so an info "could not assess" note of an unreachable check would
 * otherwise give that unexamined category a perfect score. The grade service and the external scan both use it.
 */
export function assessedSubject(
  source: Source,
  subject: string,
  categories: readonly CategoryName[],
  findings: readonly ScorableFinding[],
): ScoringSubject {
  const assessed = new Set(categories);
  return { source, subject, categories, findings: findings.filter((f) => assessed.has(f.category)) };
}
