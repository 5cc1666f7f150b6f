import { PHASE_IDS, type PhaseId } from "@hcs/protocol";
import type { Phase } from "../phases/phase.js";

/** Protocol position of a phase id, the tie-breaker that keeps orderings stable. */
export function protocolRank(id: PhaseId): number {
  return PHASE_IDS.indexOf(id);
}

/**
 * Orders phases so each comes after the phases it depends on (dependencies absent from the list are ignored),
 * protocol order among equals. Phases caught in a dependency cycle are returned apart, never run.
 */
export function orderByDependencies(phases: readonly Phase[]): { ordered: Phase[]; cyclic: Phase[] } {
  const present = new Map(phases.map((p) => [p.id, p]));
  const remaining = new Map(phases.map((p) => [p.id, new Set((p.dependsOn ?? []).filter((d) => present.has(d)))]));
  const ordered: Phase[] = [];
  while (remaining.size > 0) {
    const ready = [...remaining].filter(([, deps]) => deps.size === 0).map(([id]) => id);
    if (ready.length === 0) break;
    ready.sort((a, b) => protocolRank(a) - protocolRank(b));
    const next = ready[0]!;
    ordered.push(present.get(next)!);
    remaining.delete(next);
    for (const deps of remaining.values()) deps.delete(next);
  }
  const cyclic = [...remaining.keys()].map((id) => present.get(id)!);
  return { ordered, cyclic };
}
