import type { Grade, Severity } from "@hcs/protocol";

/** Words and formats both renderers print, so the HTML and the PDF read the same. */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "24 Nov 2026" (UTC: a report is read in many places; the time zone is stated where times are shown). */
export function formatDate(isoTime: string): string {
  const d = new Date(isoTime);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** "24 Nov 2026, 08:30 UTC". */
export function formatDateTime(isoTime: string): string {
  const d = new Date(isoTime);
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${formatDate(isoTime)}, ${hh}:${mm} UTC`;
}

export const SEVERITY_LABEL: Record<Severity, string> = {
  critical: "Critical",
  high: "High",
  medium: "Medium",
  low: "Low",
  info: "Info",
};

export const STATE_LABEL = { met: "Met", partial: "Partial", not_met: "Not met", unknown: "Unknown" } as const;

export const SOURCE_LABEL = { external: "External", internal: "Internal", administrative: "Administrative" } as const;

export const COVERAGE_LABEL = { full: "Full", partial: "Partial", none: "None" } as const;

/** Short, to fit a table cell; AUDIT_STATE_MEANING says what each means. */
export const AUDIT_STATE_LABEL = { proved: "Proved", pending: "Pending", not_logged: "Not logged" } as const;

export const AUDIT_STATE_MEANING =
  "Proved: a signed checkpoint covers the event, so its proof can be fetched now. Pending: logged, and provable once the next checkpoint is signed. Not logged: recorded before such events were logged.";

/**
 * The score axis of the trend chart: from 100 down to a round floor below the lowest score (at most 50, so the
 * grade bands always show), and the band lines (90 A, 80 B, 70 C, 60 D) above that floor.
 */
export function trendScale(scores: readonly number[]): { readonly floor: number; readonly bands: readonly number[] } {
  const lowest = Math.min(100, ...scores);
  const floor = Math.max(0, Math.min(50, Math.floor((lowest - 5) / 10) * 10));
  return { floor, bands: [90, 80, 70, 60, 50, 40, 30, 20, 10].filter((b) => b > floor) };
}

/** What each grade means, one line (the scoring bands of docs/scoring.md). */
export const GRADE_MEANING: Record<Grade, string> = {
  A: "Strong safeguards (90–100)",
  B: "Good, with gaps to close (80–89)",
  C: "Fair: material gaps (70–79)",
  D: "Poor: serious gaps (60–69)",
  F: "Failing: urgent action needed (below 60)",
};

/** Colours shared by both renderers (hex): grades and severities. */
export const GRADE_COLOUR: Record<Grade, string> = {
  A: "#15803d",
  B: "#4d7c0f",
  C: "#b45309",
  D: "#c2410c",
  F: "#b91c1c",
};

export const SEVERITY_COLOUR: Record<Severity, string> = {
  critical: "#7f1d1d",
  high: "#b91c1c",
  medium: "#c2410c",
  low: "#a16207",
  info: "#475569",
};

export const STATE_COLOUR = { met: "#15803d", partial: "#b45309", not_met: "#b91c1c", unknown: "#64748b" } as const;
