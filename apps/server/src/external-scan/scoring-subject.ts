import type { ScoringSubject } from "@hcs/protocol";
import { assessedSubject } from "../services/scoring-subject.js";
import type { ExternalScanResult } from "./run-external-scan.js";

/** The scan as one external scoring subject for `scorePractice`, scored as the grade service scores it. */
export function externalScoringSubject(result: ExternalScanResult, subject = result.target.domain): ScoringSubject {
  return assessedSubject("external", subject, result.categories, result.findings);
}
