import type {
  BatchResult,
  ComplianceDelta,
  ComplianceState,
  ControlsResultSchema,
  FindingsPage,
  GradeRecord,
  NotYetAssessed,
  ReputationSnapshot,
  ScanDispatchAcceptance,
  Severity,
} from "@hcs/protocol";
import { SEVERITIES } from "@hcs/protocol";
import type { z } from "zod";

/*
 * One paragraph a person can read in a chat, for every transport that shows one beside the structured result: the
 * text of an MCP tool result and of an A2A agent message. The complete result is always next to it; a summary only
 * picks what a person asks about first.
 */

const words = (name: string) => name.replace(/_/g, " ");
const day = (iso: string) => iso.slice(0, 10);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** At most `max` items in a sentence, then how many more. */
const listed = (items: readonly string[], max: number) =>
  items.length <= max ? items.join(", ") : `${items.slice(0, max).join(", ")} and ${items.length - max} more`;

function gradeSummary(g: GradeRecord | NotYetAssessed): string {
  if ("assessment" in g)
    return `${g.practice_name ?? "This practice"} (NPI ${g.npi}) is in the NPPES directory${g.directory.status === "deactivated" ? " (deactivated)" : ""} but has not been assessed yet: no grade, nothing charged.`;
  const scored = Object.entries(g.categories)
    .filter((e): e is [string, { score: number; weight: number }] => e[1] !== undefined)
    .sort((a, b) => a[1].score - b[1].score);
  const weakest = scored.slice(0, 2).map(([name, c]) => `${words(name)} ${c.score}`);
  const missing = (["external", "internal", "administrative"] as const).filter((s) => g.coverage[s].status === "none");
  return [
    `${g.practice_name} (NPI ${g.npi}) has grade ${g.grade}, ${g.compliance_score}/100, as of ${day(g.scan_date)}.`,
    weakest.length > 0 ? `Weakest: ${weakest.join(", ")}.` : "",
    g.caps_applied.length > 0
      ? `Capped at ${g.caps_applied.map((c) => `${c.max_grade} (${c.reason})`).join("; ")}.`
      : "",
    missing.length > 0 ? `No ${missing.join(" or ")} data yet, so those categories are not scored.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

function findingsSummary(p: FindingsPage): string {
  if (p.findings.length === 0) return `No findings for NPI ${p.npi} match${p.next_cursor ? " on this page" : ""}.`;
  const bySeverity = SEVERITIES.map((s: Severity) => [s, p.findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  const top = p.findings[0]!;
  return [
    `${plural(p.findings.length, `${top.status} finding`)} for NPI ${p.npi}${p.next_cursor ? " on this page" : ""}: ${bySeverity.join(", ")}.`,
    `Most severe: "${top.title}" (${top.severity}, ${words(top.category)}${top.host ? `, host ${top.host}` : ""}; HIPAA ${top.controls.join(", ")}). Fix: ${top.remediation}`,
    p.next_cursor ? "More findings: call again with the next_cursor as cursor." : "",
  ]
    .filter(Boolean)
    .join(" ");
}

function scanSummary(s: ScanDispatchAcceptance): string {
  return `Full scan accepted as job ${s.job_id}; it should take about ${Math.max(1, Math.round(s.estimated_duration_ms / 1000))} s. Its result is at ${s.poll_url}, and a grade lookup afterwards shows the new score.`;
}

function batchSummary(b: BatchResult): string {
  const graded = b.results.flatMap((r) => (r.ok ? [`${r.npi} ${r.grade.grade} (${r.grade.compliance_score})`] : []));
  const failed = b.results.flatMap((r) => (r.ok ? [] : [`${r.npi}: ${r.error.code}`]));
  return [
    `Grades for ${plural(b.results.length, "NPI")}: ${b.graded} graded${graded.length > 0 ? ` — ${listed(graded, 10)}` : ""}.`,
    failed.length > 0 ? `No grade for ${listed(failed, 10)}.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

function reputationSummary(r: ReputationSnapshot): string {
  return `HCS has run ${plural(r.total_scans, "scan")} for ${plural(r.practices_served, "practice")} and detected ${plural(r.findings_detected, "finding")}; average response time ${Math.round(r.average_response_time_ms)} ms (snapshot of ${r.generated_at}, SHA-256 ${r.sha256.slice(0, 12)}…).`;
}

function controlsSummary(c: z.output<typeof ControlsResultSchema>): string {
  if (c.controls.length === 0) return "No HIPAA controls match.";
  const shown = c.controls.map((e) => `${e.id} ${e.title} (${e.requirement})`);
  return `${plural(c.controls.length, "HIPAA Security Rule control")}: ${listed(shown, 5)}.`;
}

function complianceStateSummary(s: ComplianceState): string {
  const notMet = s.requirements.filter((r) => r.state === "not_met").map((r) => r.title);
  return [
    `NPI ${s.npi}, as of ${day(s.as_of)}: of the 13 HIPAA requirements ${s.summary.met} met, ${s.summary.partial} partial, ${s.summary.not_met} not met, ${s.summary.unknown} unknown.`,
    notMet.length > 0 ? `Not met: ${listed(notMet, 4)}.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

function complianceDeltaSummary(d: ComplianceDelta): string {
  const sign = (n: number) => (n > 0 ? `+${n}` : String(n));
  return [
    `NPI ${d.npi}: score ${d.from.compliance_score} → ${d.to.compliance_score} (${sign(d.score_change)})`,
    d.grade_change ? `, grade ${d.grade_change}` : `, grade ${d.to.grade} unchanged`,
    ` between ${day(d.from.scan_date)} and ${day(d.to.scan_date)};`,
    ` ${plural(d.new_findings.length, "new finding")}, ${d.resolved_findings.length} resolved.`,
  ].join("");
}

type Summarize = (output: never) => string;

/** One summary per agent method; a method without one gets the generic sentence. */
const SUMMARIES: Readonly<Record<string, Summarize>> = {
  "hipaa.grade": gradeSummary,
  "hipaa.findings": findingsSummary,
  "hipaa.scan": scanSummary,
  "hipaa.batch": batchSummary,
  "hipaa.reputation": reputationSummary,
  "hipaa.get_controls": controlsSummary,
  "hipaa.compliance_state": complianceStateSummary,
  "hipaa.compliance_delta": complianceDeltaSummary,
};

/** The one-paragraph summary of a successful call's output. */
export function summarizeOutput(method: string, output: Record<string, unknown>): string {
  const summarize = SUMMARIES[method];
  if (summarize) {
    try {
      return summarize(output as never);
    } catch {
      // A shape the summary did not expect must not turn a good result into an error: fall back to the generic text.
    }
  }
  return `${method} succeeded; the full result is attached (${listed(Object.keys(output), 8)}).`;
}
