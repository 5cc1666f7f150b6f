import type { PhaseId, PhaseResult, Severity } from "@hcs/protocol";
import { PRIVILEGE_GAP_CHECK } from "../phases/shared/privilege-gap.js";

/** Facts key under which a completed phase names the checks it could not make, each with the reason. */
export const NOT_ASSESSED_FACT = "not_assessed";

/** Something the scan did not assess: a whole phase (skipped, unsupported, failed) or one check of a phase. */
export interface NotAssessed {
  readonly phase: PhaseId;
  /** The check that could not be made, when the phase itself completed. */
  readonly check?: string;
  readonly status: PhaseResult["status"];
  readonly reason: string;
  /**
   * A check this run lacked the privileges for counts in the grade as its most severe finding
   * (phases/shared/privilege-gap.ts): that severity (the highest when it stands for several files).
   */
  readonly counted_as?: Severity;
}

const SEVERITY_ORDER: readonly Severity[] = ["critical", "high", "medium", "low", "info"];

/**
 * What this scan did not assess, in phase order (pure): phases that did not complete, with their reason, and the
 * checks a completed phase names under `not_assessed` in its facts. None of these may read as "passed".
 */
export function notAssessed(results: readonly PhaseResult[]): NotAssessed[] {
  const out: NotAssessed[] = [];
  for (const r of results) {
    if (r.status !== "ok") {
      out.push({ phase: r.id, status: r.status, reason: r.reason ?? r.error?.message ?? "no reason given" });
      continue;
    }
    const checks = r.facts[NOT_ASSESSED_FACT];
    if (!checks || typeof checks !== "object" || Array.isArray(checks)) continue;
    for (const [check, reason] of Object.entries(checks)) {
      if (typeof reason !== "string") continue;
      const counted = r.findings
        .filter((f) => f.check_id === `${r.id}.${PRIVILEGE_GAP_CHECK}` && f.evidence?.not_assessed === check)
        .map((f) => f.severity)
        .sort((a, b) => SEVERITY_ORDER.indexOf(a) - SEVERITY_ORDER.indexOf(b))[0];
      out.push({ phase: r.id, check, status: r.status, reason, ...(counted ? { counted_as: counted } : {}) });
    }
  }
  return out;
}

/** The lines the scan report prints about them (nothing when everything selected was assessed). */
export function notAssessedLines(items: readonly NotAssessed[]): string[] {
  if (items.length === 0) return [];
  return [
    "Not assessed (unknown, not passed):",
    ...items.map(
      (i) =>
        `  ${i.phase}: ${i.check ? `${i.check.replace(/_/g, " ")}: ` : `${i.status}, `}${i.reason}${i.counted_as ? ` (counted as a ${i.counted_as} finding until a scan with administrator privileges makes it)` : ""}`,
    ),
  ];
}
