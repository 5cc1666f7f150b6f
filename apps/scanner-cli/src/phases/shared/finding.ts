import type {
  CategoryName,
  FindingInput,
  GradeCapId,
  HipaaControlId,
  JsonObject,
  PhaseId,
  Severity,
} from "@hcs/protocol";
import { phaseDescriptor } from "@hcs/protocol";

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

/** Characters the protocol allows in a finding id; anything else in a subject becomes `_`. */
const ID_UNSAFE = /[^a-z0-9_.:\-/[\]@]/gi;

/** Builds an internal finding of a phase, citing the phase's controls and category unless told otherwise. */
export function phaseFinding(phase: PhaseId, spec: FindingSpec): FindingInput {
  const d = phaseDescriptor(phase);
  const checkId = `${phase}.${spec.check}`;
  const id = spec.subject ? `${checkId}:${spec.subject.replace(ID_UNSAFE, "_")}`.slice(0, 200) : checkId;
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
