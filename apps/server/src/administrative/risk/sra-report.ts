import { z } from "zod";
import { addDays, addYears } from "../calendar-date.js";
import type { ResolvedAnswer } from "./answers.js";
import { QUESTIONNAIRE_VERSION, QUESTIONS } from "./questionnaire.js";
import { levelOf, REMEDIATION_DAYS, type RiskEntry, riskRegister, SCALES } from "./risk-register.js";

const Level = z.enum(["low", "moderate", "high", "very_high"]);

export const SraReportSchema = z
  .object({
    npi: z.string(),
    id: z.string(),
    version: z.int(),
    assessed_at: z.iso.datetime(),
    /** An SRA older than 12 months counts as missing. */
    valid_until: z.string(),
    methodology: z.string(),
    questionnaire_version: z.string(),
    scales: z.object({
      likelihood: z.record(z.string(), z.string()),
      impact: z.record(z.string(), z.string()),
      level: z.record(z.string(), z.string()),
    }),
    overall_level: Level,
    register: z.array(
      z.object({
        id: z.string(),
        threat: z.string(),
        vulnerability: z.string(),
        likelihood: z.int(),
        impact: z.int(),
        score: z.int(),
        level: Level,
        controls_in_place: z.array(z.string()),
        controls_missing: z.array(z.string()),
        evidence: z.array(
          z.object({
            question: z.string(),
            answer: z.string(),
            findings: z.array(z.string()),
            source: z.string().nullable(),
          }),
        ),
        remediation: z.string(),
      }),
    ),
    /** Controls some risk still lacks, with the questions that showed it. */
    gaps: z.array(z.object({ control: z.string(), questions: z.array(z.string()) })),
    /** Responses the scans contradict: the evidence's answer was used where a response claimed more. */
    contradictions: z.array(
      z.object({
        question: z.string(),
        response: z.string(),
        evidence: z.string(),
        kind: z.string(),
        findings: z.array(z.string()),
      }),
    ),
    unanswered: z.array(z.string()),
    remediation_plan: z.array(
      z.object({
        priority: z.int(),
        risk: z.string(),
        level: Level,
        action: z.string(),
        controls: z.array(z.string()),
        due_on: z.string(),
      }),
    ),
  })
  .meta({
    id: "SraReport",
    description: "A security risk assessment (NIST SP 800-30 risk register and remediation plan)",
  });
export type SraReport = z.infer<typeof SraReportSchema>;

const METHODOLOGY =
  "NIST SP 800-30 Rev. 1 as applied by the HHS Guidance on Risk Analysis Requirements under the HIPAA Security Rule: " +
  "threat–vulnerability pairs rated for likelihood and impact on five-level scales, risk = likelihood × impact, " +
  "questionnaire structured as the HHS/ONC SRA Tool, responses reconciled with HCS scan evidence.";

/** The SRA from reconciled answers (pure). */
export function buildSraReport(
  answers: readonly ResolvedAnswer[],
  meta: { npi: string; id: string; version: number; assessed_at: string },
): SraReport {
  const register: RiskEntry[] = riskRegister(answers);
  const today = meta.assessed_at.slice(0, 10);
  const gaps = new Map<string, Set<string>>();
  for (const a of answers) {
    if (a.effective === "yes" || a.effective === "not_applicable") continue;
    for (const c of QUESTIONS.find((q) => q.id === a.question)!.controls)
      gaps.set(c, (gaps.get(c) ?? new Set()).add(a.question));
  }
  const plan = register
    .filter((r) => REMEDIATION_DAYS[r.level] !== null)
    .map((r, i) => ({
      priority: i + 1,
      risk: r.id,
      level: r.level,
      action: r.remediation,
      controls: r.controls_missing,
      due_on: addDays(today, REMEDIATION_DAYS[r.level]!),
    }));
  return {
    ...meta,
    valid_until: addYears(today, 1),
    methodology: METHODOLOGY,
    questionnaire_version: QUESTIONNAIRE_VERSION,
    scales: { likelihood: SCALES.likelihood, impact: SCALES.impact, level: SCALES.level },
    overall_level: levelOf(Math.max(...register.map((r) => r.score))),
    register,
    gaps: [...gaps].map(([control, qs]) => ({ control, questions: [...qs] })),
    contradictions: answers
      .filter((a) => a.contradiction)
      .map((a) => ({
        question: a.question,
        response: a.response!,
        evidence: a.evidence!.answer,
        kind: a.contradiction!,
        findings: [...a.evidence!.findings],
      })),
    unanswered: answers.filter((a) => a.effective === "unknown").map((a) => a.question),
    remediation_plan: plan,
  };
}
