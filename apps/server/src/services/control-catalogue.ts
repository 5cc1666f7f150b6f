import { COMPLIANCE_REQUIREMENTS, HIPAA_CONTROLS, type HipaaControlId, PHASES, type Source } from "@hcs/protocol";

export interface ControlFilter {
  readonly ids?: readonly string[];
  readonly standard?: string;
  readonly requirement?: string;
  readonly section?: string;
}

interface Verification {
  readonly source: Source;
  readonly by: string;
  readonly description: string;
}

/**
 * The HIPAA Security Rule catalogue (45 CFR 164.308–316) with how HCS verifies each control: the external checks
 * whose findings cite it (`externalChecks`: check id → controls, from the external scan's finding catalogue), the
 * scanner phases that examine it, and the administrative records the 13 requirements read. Filters combine.
 */
export function controlCatalogue(
  filter: ControlFilter,
  externalChecks: ReadonlyMap<HipaaControlId, readonly string[]>,
) {
  const verification = new Map<string, Verification[]>();
  const add = (control: string, v: Verification) =>
    verification.set(control, [...(verification.get(control) ?? []), v]);
  for (const [control, checks] of externalChecks) {
    // One entry per external check (its finding kinds share the check id before the last dot).
    for (const check of new Set(checks.map((c) => c.slice(0, c.lastIndexOf("."))))) {
      add(control, { source: "external", by: check, description: `external scan check ${check}` });
    }
  }
  for (const phase of PHASES) {
    for (const control of phase.controls)
      add(control, {
        source: "internal",
        by: phase.id,
        description: `scanner phase ${phase.order} (${phase.title}): ${phase.checks}`,
      });
  }
  const requirementsOf = new Map<string, string[]>();
  for (const r of COMPLIANCE_REQUIREMENTS) {
    for (const control of r.controls) requirementsOf.set(control, [...(requirementsOf.get(control) ?? []), r.id]);
    for (const e of r.evidence) {
      if (e.kind !== "administrative") continue;
      for (const control of r.controls)
        add(control, {
          source: "administrative",
          by: e.record,
          description: `the practice's ${e.record.replace(/_/g, " ")} records`,
        });
    }
  }
  const inRequirement = filter.requirement
    ? new Set<string>(COMPLIANCE_REQUIREMENTS.find((r) => r.id === filter.requirement)?.controls ?? [])
    : null;
  return HIPAA_CONTROLS.filter((c) => {
    if (filter.ids && !filter.ids.includes(c.id)) return false;
    if (filter.standard && c.id !== filter.standard && ("standard" in c ? c.standard : undefined) !== filter.standard)
      return false;
    if (filter.section && c.section !== filter.section) return false;
    if (inRequirement && !inRequirement.has(c.id)) return false;
    return true;
  }).map((c) => ({
    id: c.id,
    section: c.section,
    kind: c.kind,
    title: c.title,
    requirement: c.requirement,
    ...("standard" in c && c.standard ? { standard: c.standard } : {}),
    requirements: requirementsOf.get(c.id) ?? [],
    verified_by: dedupe(verification.get(c.id) ?? []),
  }));
}

function dedupe(list: readonly Verification[]): Verification[] {
  const seen = new Set<string>();
  return list.filter((v) => {
    const key = `${v.source}:${v.by}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
