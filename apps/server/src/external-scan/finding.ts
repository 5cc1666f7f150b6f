import {
  type CategoryName,
  FindingInputSchema,
  type FindingParsed,
  findingId,
  type GradeCapId,
  type HipaaControlId,
  type JsonObject,
  type Severity,
} from "@hcs/protocol";

/** What a check says about one problem on one subject; the builder turns it into a protocol finding. */
export interface FindingSpec {
  /** `<check id>.<problem>`, e.g. `email.dmarc.missing`. */
  readonly check_id: string;
  /** What the problem is about: the domain, the site host, `host:port`, a tracker on a host… Makes the id stable. */
  readonly subject: string;
  readonly category: CategoryName;
  readonly severity: Severity;
  readonly title: string;
  readonly detail: string;
  readonly remediation: string;
  readonly controls: readonly HipaaControlId[];
  readonly evidence?: JsonObject;
  readonly grade_cap?: GradeCapId;
  readonly host?: string;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * A schema-valid external finding. The id is `<check_id>:<subject>`, so the same problem on the same subject
 * keeps its id from scan to scan (the server's first_seen/last_seen rely on it). Throws if a check built an
 * invalid finding, which the check runner reports as a check error.
 */
export function externalFinding(spec: FindingSpec): FindingParsed {
  // The protocol's rule, the scanner's too: one subject, one id.
  const id = findingId(spec.check_id, spec.subject);
  return FindingInputSchema.parse({
    id,
    check_id: spec.check_id,
    source: "external",
    category: spec.category,
    severity: spec.severity,
    title: clip(spec.title, 200),
    detail: clip(spec.detail, 2000),
    evidence: spec.evidence ?? {},
    remediation: clip(spec.remediation, 2000),
    controls: [...spec.controls],
    ...(spec.host ? { host: spec.host } : {}),
    ...(spec.grade_cap ? { grade_cap: spec.grade_cap } : {}),
  });
}
