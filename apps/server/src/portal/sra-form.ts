import { z } from "zod";
import { ANSWERS, type Responses } from "../administrative/risk/answers.js";
import type { RiskAssessmentView } from "../administrative/risk/risk-assessment-view.js";

/**
 * The risk-assessment questionnaire as a form (pure): field names, what each question shows, and how a submitted
 * form becomes the `responses` of hipaa.sra (docs/portal.md, "Risk assessment").
 *
 * Fields are `answer:<question id>` (one of the answers, or empty: not answered) and `note:<question id>`.
 */

export type Question = RiskAssessmentView["questionnaire"]["sections"][number]["questions"][number];

/** What one question of the form holds: the answer chosen ("" for none) and the note. */
export interface QuestionValue {
  readonly answer: string;
  readonly note: string;
}

/** The form as shown: each question's value, and the problems of a refused submission next to their questions. */
export interface SraFormState {
  readonly values: Readonly<Record<string, QuestionValue>>;
  readonly errors: Readonly<Record<string, string>>;
  /** A problem of the form as a whole (fields this questionnaire does not have). */
  readonly formError: string | null;
}

export const answerField = (questionId: string) => `answer:${questionId}`;
export const noteField = (questionId: string) => `note:${questionId}`;

/** The longest note a response may carry (ResponseSchema). */
export const NOTE_MAX = 2000;

/** The fields of a submitted questionnaire (CSRF checked and removed by readForm): names and values, bounded. */
export const SraFormFieldsSchema = z.record(z.string().max(200), z.string().max(20_000));

const AnswerFieldSchema = z.enum(["", ...ANSWERS], { error: "Choose one of the answers." });
const NoteFieldSchema = z
  .string()
  .max(NOTE_MAX, `A note can be at most ${NOTE_MAX} characters.`)
  .transform((s) => s.trim());

const questionsOf = (view: RiskAssessmentView) => view.questionnaire.sections.flatMap((s) => s.questions);

/**
 * What the form shows before anything is submitted: the stored response, else the scans' answer (pre-filled, marked
 * as such on the page), else nothing.
 */
export function initialState(view: RiskAssessmentView): SraFormState {
  const values: Record<string, QuestionValue> = {};
  for (const q of questionsOf(view))
    values[q.id] = { answer: q.response?.answer ?? q.prefill?.answer ?? "", note: q.response?.note ?? "" };
  return { values, errors: {}, formError: null };
}

/**
 * Reads a submitted form against the questionnaire: the state to show if it is shown again (the person's answers
 * kept, each problem next to its question), and the responses to send — null when the form has a problem.
 *
 * Only what the person said is sent: an answer left as the scans pre-filled it (and never answered before) stays
 * the scans' — sent as a response it would be frozen, and a later scan that changed the evidence would be read as a
 * contradiction. A response equal to the stored one is not sent again (the operation keeps the stored ones).
 */
export function readSraForm(
  view: RiskAssessmentView,
  fields: Readonly<Record<string, string>>,
): { readonly state: SraFormState; readonly responses: Responses | null } {
  const questions = questionsOf(view);
  const known = new Set(questions.flatMap((q) => [answerField(q.id), noteField(q.id)]));
  const values: Record<string, QuestionValue> = {};
  const errors: Record<string, string> = {};
  const responses: Responses = {};
  for (const q of questions) {
    const rawAnswer = fields[answerField(q.id)] ?? "";
    const rawNote = fields[noteField(q.id)] ?? "";
    values[q.id] = { answer: rawAnswer, note: rawNote };
    const answer = AnswerFieldSchema.safeParse(rawAnswer);
    const note = NoteFieldSchema.safeParse(rawNote);
    if (!answer.success || !note.success) {
      errors[q.id] = (answer.error ?? note.error)!.issues[0]!.message;
      continue;
    }
    if (answer.data === "") {
      if (note.data !== "") errors[q.id] = "Choose an answer for the note to be kept.";
      continue;
    }
    const stored = q.response;
    const unchanged = stored
      ? stored.answer === answer.data && (stored.note ?? "") === note.data
      : answer.data === q.prefill?.answer && note.data === "";
    if (unchanged) continue;
    responses[q.id] = { answer: answer.data, ...(note.data !== "" ? { note: note.data } : {}) };
  }
  const unknown = Object.keys(fields).filter((f) => !known.has(f));
  const formError =
    unknown.length > 0 ? "The form has questions this questionnaire does not have: reload the page." : null;
  const refused = formError !== null || Object.keys(errors).length > 0;
  return { state: { values, errors, formError }, responses: refused ? null : responses };
}
