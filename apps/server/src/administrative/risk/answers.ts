import { SEVERITIES, type Severity } from "@hcs/protocol";
import { z } from "zod";
import type { PracticeEvidence } from "../../services/compliance-state.js";
import { QUESTION_IDS, QUESTIONS, type Question } from "./questionnaire.js";

export const ANSWERS = ["yes", "partial", "no", "unknown", "not_applicable"] as const;
export type Answer = (typeof ANSWERS)[number];

export const ResponseSchema = z.strictObject({
  answer: z.enum(ANSWERS),
  note: z.string().max(2000).optional(),
});
/** Responses keyed by question id; unknown ids are refused. */
export const ResponsesSchema = z.record(z.string().max(100), ResponseSchema).superRefine((r, ctx) => {
  for (const id of Object.keys(r))
    if (!QUESTION_IDS.includes(id))
      ctx.addIssue({ code: "custom", path: [id], message: "not a question of the questionnaire" });
});
export type Responses = z.infer<typeof ResponsesSchema>;

/** What the scans say about a question. */
export interface EvidenceAnswer {
  readonly answer: "yes" | "partial" | "no";
  readonly source: string;
  readonly detail: string;
  readonly findings: readonly string[];
}

const rank = (s: Severity) => SEVERITIES.indexOf(s);

/**
 * The answer the evidence gives to a question the scans examine (pure): none when they did not examine it; `no`
 * when an open finding is critical or high, `partial` for medium or low, `yes` for none above information — the same
 * reading as the compliance state's.
 */
export function evidenceAnswer(q: Question, evidence: PracticeEvidence): EvidenceAnswer | null {
  const e = q.evidence;
  if (!e) return null;
  let findings: PracticeEvidence["openFindings"];
  let source: string;
  if (e.kind === "phase") {
    const ran = evidence.assessments.filter(
      (a) => a.source === "internal" && a.phases?.some((p) => p.id === e.phase && p.status === "ok"),
    );
    if (ran.length === 0) return null;
    const hosts = new Set(ran.map((a) => a.subject));
    findings = evidence.openFindings.filter(
      (f) => f.source === "internal" && hosts.has(f.subject) && f.check_id.startsWith(`${e.phase}.`),
    );
    source = `scanner phase ${e.phase} on ${ran.length} host(s)`;
  } else {
    const ran = evidence.assessments.filter((a) => a.source === "external" && a.categories.includes(e.category));
    if (ran.length === 0) return null;
    findings = evidence.openFindings.filter((f) => f.source === "external" && f.category === e.category);
    source = `external scan (${e.category.replace(/_/g, " ")})`;
  }
  const holding = findings.filter((f) => f.severity !== "info").sort((a, b) => rank(a.severity) - rank(b.severity));
  const worst = holding[0]?.severity;
  const answer = !worst ? "yes" : rank(worst) <= rank("high") ? "no" : "partial";
  return {
    answer,
    source,
    detail: worst ? `${holding.length} open finding(s), the worst ${worst}` : "no open finding above information",
    findings: holding.map((f) => f.id),
  };
}

const STRENGTH: Record<Answer, number> = { yes: 3, not_applicable: 3, partial: 2, no: 1, unknown: 0 };

export interface ResolvedAnswer {
  readonly question: string;
  readonly response: Answer | null;
  readonly evidence: EvidenceAnswer | null;
  /** The answer the assessment uses: the evidence's when the response claims more than the evidence shows. */
  readonly effective: Answer;
  /** The response contradicts the evidence (flagged, never silently accepted). */
  readonly contradiction: "overstates" | "understates" | null;
}

/** Reconciles each question's response with the evidence (pure). */
export function resolveAnswers(responses: Responses, evidence: PracticeEvidence): ResolvedAnswer[] {
  return QUESTIONS.map((q) => {
    const response = responses[q.id]?.answer ?? null;
    const ev = evidenceAnswer(q, evidence);
    if (!ev) return { question: q.id, response, evidence: null, effective: response ?? "unknown", contradiction: null };
    if (response === null || response === "unknown")
      return { question: q.id, response, evidence: ev, effective: ev.answer, contradiction: null };
    const diff = STRENGTH[response] - STRENGTH[ev.answer];
    return {
      question: q.id,
      response,
      evidence: ev,
      effective: diff > 0 ? ev.answer : response,
      contradiction: diff > 0 ? "overstates" : diff < 0 ? "understates" : null,
    };
  });
}
