import type { FindingInput, JsonObject } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";

/** What an OS-specific MFA reader found: facts for the report and the findings they justify. */
export interface MfaState {
  readonly facts: JsonObject;
  readonly findings: FindingInput[];
}

/** The one finding every platform raises when nothing shows a second factor protecting logins. */
export function noMfaForLogins(detail: string, remediation: string, evidence: JsonObject): FindingInput {
  return phaseFinding("mfa", {
    check: "no_mfa_for_logins",
    severity: "medium",
    title: "No second factor protects logins on this machine",
    detail,
    remediation,
    evidence,
  });
}
