import type {
  CategoryName,
  FindingInput,
  GradeCapId,
  HipaaControlId,
  JsonObject,
  PhaseId,
  Severity,
} from "@hcs/protocol";
import { findingId, phaseDescriptor } from "@hcs/protocol";

export interface FindingSpec {
  /** Short snake_case name of the check inside the phase, e.g. `unencrypted_volume`. */
  readonly check: string;
  /** What the finding is about (volume, host:port, account); makes the id stable per subject across scans. */
  readonly subject?: string;
  readonly severity: Severity;
  readonly title: string;
  readonly detail: string;
  readonly remediation: string;
  /** Facts that back the finding: names, counts, settings. Never secrets, never ePHI. */
  readonly evidence?: JsonObject;
  readonly host?: string;
  readonly gradeCap?: GradeCapId;
  /** Defaults to the phase's first score category. */
  readonly category?: CategoryName;
  /** Defaults to the phase's HIPAA controls. */
  readonly controls?: readonly HipaaControlId[];
}

/** Builds an internal finding of a phase, citing the phase's controls and category unless told otherwise. */
export function phaseFinding(phase: PhaseId, spec: FindingSpec): FindingInput {
  const d = phaseDescriptor(phase);
  const checkId = `${phase}.${spec.check}`;
  // The protocol's rule, the server's too: one subject, one id.
  const id = findingId(checkId, spec.subject);
  return {
    id,
    check_id: checkId,
    source: "internal",
    category: spec.category ?? d.categories[0]!,
    severity: spec.severity,
    title: spec.title.slice(0, 200),
    detail: spec.detail.slice(0, 2000),
    evidence: spec.evidence ?? {},
    remediation: spec.remediation.slice(0, 2000),
    controls: [...(spec.controls ?? d.controls)],
    ...(spec.host ? { host: spec.host } : {}),
    ...(spec.gradeCap ? { grade_cap: spec.gradeCap } : {}),
  };
}
