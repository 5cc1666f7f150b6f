import type { ScoringSubject } from "@hcs/protocol";
import type { ExternalScanResult } from "./run-external-scan.js";

/**
 * The scan as one external scoring subject for `scorePractice`. Findings of categories the scan could not assess
 * (only its info "not assessed" findings) are left out: scorePractice counts a finding's category as examined,
 * which would give an unassessed category a perfect score.
 */
export function externalScoringSubject(result: ExternalScanResult, subject = result.target.domain): ScoringSubject {
  const assessed = new Set(result.categories);
  return {
    source: "external",
    subject,
    categories: result.categories,
    findings: result.findings.filter((f) => assessed.has(f.category)),
  };
}
