import {
  type CategoryName,
  type Grade,
  PHASES,
  type PhaseResult,
  SEVERITIES,
  type Severity,
  scorePractice,
} from "@hcs/protocol";

export interface ScanSummary {
  readonly phases: Record<"ok" | "failed" | "skipped" | "unsupported", number>;
  readonly findings: Record<Severity, number>;
  /** The grade of this host's internal categories alone (what --fail-under uses without an upload). */
  readonly localGrade: { grade: Grade; score: number } | null;
}

/** Counts by status and severity, and the internal-only grade of this scan, computed with the protocol's scoring. */
export function summarizeScan(phases: readonly PhaseResult[], hostname: string): ScanSummary {
  const byStatus = { ok: 0, failed: 0, skipped: 0, unsupported: 0 };
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  const categories = new Set<CategoryName>();
  for (const p of phases) {
    byStatus[p.status]++;
    for (const f of p.findings) bySeverity[f.severity]++;
    if (p.status === "ok") for (const c of PHASES.find((d) => d.id === p.id)?.categories ?? []) categories.add(c);
  }
  const findings = phases.flatMap((p) => p.findings).filter((f) => categories.has(f.category));
  const scored = scorePractice([{ source: "internal", subject: hostname, categories: [...categories], findings }]);
  return {
    phases: byStatus,
    findings: bySeverity,
    localGrade: scored ? { grade: scored.grade, score: scored.compliance_score } : null,
  };
}
