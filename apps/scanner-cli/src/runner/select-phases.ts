import { type PhaseId, PhaseIdSchema } from "@hcs/protocol";
import type { Phase } from "../phases/phase.js";
import { PhaseSelectionError } from "./errors.js";
import { orderByDependencies } from "./topo-order.js";

export interface PhaseSelection {
  /** The phases to run, dependencies first. */
  readonly phases: Phase[];
  /** Phases added because a selected phase reads their outcome (tell the operator). */
  readonly added: PhaseId[];
}

/**
 * Resolves `--phases` (comma- or space-separated ids; empty or absent = all) against the registry. Unknown ids
 * are a typed error listing them; dependencies of selected phases are added so their outcomes exist.
 */
export function selectPhases(registry: readonly Phase[], requested?: string | readonly string[]): PhaseSelection {
  const tokens = (typeof requested === "string" ? [requested] : (requested ?? []))
    .flatMap((s) => s.split(/[\s,]+/))
    .map((s) => s.trim())
    .filter(Boolean);
  if (requested !== undefined && tokens.length === 0) {
    throw new PhaseSelectionError("empty_selection", "--phases names no phase");
  }
  if (tokens.length === 0) return { phases: orderByDependencies(registry).ordered, added: [] };
  const unknown = tokens.filter((t) => !PhaseIdSchema.safeParse(t).success || !registry.some((p) => p.id === t));
  if (unknown.length > 0) {
    const known = registry.map((p) => p.id).join(", ");
    throw new PhaseSelectionError(
      "unknown_phase",
      `unknown phase ${unknown.join(", ")}; known phases: ${known}`,
      unknown,
    );
  }
  const byId = new Map(registry.map((p) => [p.id, p]));
  const chosen = new Set(tokens as PhaseId[]);
  const added: PhaseId[] = [];
  const visit = (id: PhaseId) => {
    for (const dep of byId.get(id)?.dependsOn ?? []) {
      if (chosen.has(dep) || !byId.has(dep)) continue;
      chosen.add(dep);
      added.push(dep);
      visit(dep);
    }
  };
  for (const id of [...chosen]) visit(id);
  const phases = orderByDependencies(registry.filter((p) => chosen.has(p.id))).ordered;
  return { phases, added };
}
