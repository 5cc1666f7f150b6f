import { SEVERITIES, type Severity } from "@hcs/protocol";
import type { ResultEvidence } from "../result-evidence.js";

/** A requirement's state (hipaa.compliance_state). */
export type State = "met" | "partial" | "not_met" | "unknown";

/** One piece of a requirement's evidence as the evaluation makes it, with the records it read (`sources`). */
export interface EvidenceItem {
  readonly kind: "phase" | "external_check" | "administrative" | "audit_log";
  readonly ref: string;
  readonly sources: string[];
  readonly state: State;
  readonly detail: string;
  readonly findings: string[];
  readonly assessed_at: string | null;
}

/** An internal assessment as the requirements read it: a scanner host and its current results. */
export interface HostAssessment {
  readonly reference: string | null;
  readonly subject: string;
  /** The host's phases with a current result (status ok), each dated, with what the requirements read of it. */
  readonly phases: readonly {
    readonly id: string;
    readonly assessed_at?: string;
    readonly evidence?: ResultEvidence | null;
  }[];
  /** Its results (current or not) show it holds ePHI (readiness/host-restore.ts `holdsEphi`). */
  readonly holds_ephi?: boolean;
}

export interface OpenFinding {
  readonly id: string;
  readonly source: string;
  readonly subject: string;
  readonly check_id: string;
  readonly severity: Severity;
}

const rankOf = (s: Severity) => SEVERITIES.indexOf(s);
/** Most severe first. */
export const bySeverity = (a: OpenFinding, b: OpenFinding) => rankOf(a.severity) - rankOf(b.severity);

/** Several states: the worst known one; one still unknown beside a known one makes it partial (at best). */
export function combine(states: readonly State[]): State {
  const known = states.filter((s) => s !== "unknown");
  if (known.length === 0) return "unknown";
  if (known.includes("not_met")) return "not_met";
  if (known.includes("partial") || known.length < states.length) return "partial";
  return "met";
}

/** The current result of `phase` on a host, if any. */
export const resultOf = (host: HostAssessment, phase: string) => host.phases.find((p) => p.id === phase);

/**
 * The hosts a requirement about ePHI judges, among those with a current result of `phase`: the ones shown to hold
 * ePHI; when none is, every one of them (in a practice most machines do; docs/scoring.md §9), said so in `scope`.
 */
export function ephiScope(hosts: readonly HostAssessment[], phase: string) {
  const ran = hosts.filter((h) => resultOf(h, phase) !== undefined);
  const ephi = ran.filter((h) => h.holds_ephi);
  return ephi.length > 0
    ? { ran, judged: ephi, scope: "ePHI-holding host" }
    : { ran, judged: ran, scope: "scanner host (none is shown to hold ePHI)" };
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
export const latest = (dates: readonly (string | undefined | null)[]) =>
  dates
    .filter((d): d is string => typeof d === "string")
    .sort()
    .at(-1) ?? null;
export const refsOf = (hosts: readonly HostAssessment[]) => hosts.flatMap((h) => (h.reference ? [h.reference] : []));
