import type { EvidenceCoverage } from "../audit/evidence-coverage.js";
import { auditLogItem, auditTrailState } from "../services/requirements/audit-trail.js";
import type { EvidenceItem } from "../services/requirements/items.js";
import type { RequirementsReading } from "./scan-basis.js";

type Requirement = RequirementsReading["requirements"][number];
type Item = Requirement["evidence"][number];

/**
 * The requirements of a report with the audit-log part of requirement 13 read as of the report's generation, like
 * the report's audit references: a record logged at the scan awaits the next signed checkpoint then, and is proved
 * after it (docs/report.md). Everything else stays as of the scan's completion; the summary is counted again.
 */
export function withAuditLogAsOf(
  reading: RequirementsReading | null,
  coverage: EvidenceCoverage | null,
  generatedAt: string,
): RequirementsReading | null {
  if (!reading || !coverage) return reading;
  const requirements = reading.requirements.map((r): Requirement => {
    const at = r.evidence.findIndex((e) => e.kind === "audit_log");
    const controls = r.evidence.find((e) => e.kind === "phase");
    if (at < 0 || !controls) return r;
    const log = auditLogItem(r.evidence[at]!.sources, coverage);
    const now: Item = {
      kind: log.kind,
      ref: log.ref,
      state: log.state,
      detail: `as of this report's generation (${generatedAt}): ${log.detail}`,
      findings: log.findings,
      sources: log.sources,
    };
    const evidence = r.evidence.map((e, i) => (i === at ? now : e));
    return { ...r, evidence, state: auditTrailState(controls as unknown as EvidenceItem, log) };
  });
  const count = (s: Requirement["state"]) => requirements.filter((r) => r.state === s).length;
  return {
    ...reading,
    requirements,
    summary: { met: count("met"), partial: count("partial"), not_met: count("not_met"), unknown: count("unknown") },
  };
}
