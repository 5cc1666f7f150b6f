import type { RiskAssessmentView } from "../../administrative/risk/risk-assessment-view.js";
import type { SraReport } from "../../administrative/risk/sra-report.js";
import { answerField, NOTE_MAX, noteField, type Question, type SraFormState } from "../sra-form.js";
import { CsrfField, Notice, PortalPage, type Viewer } from "./layout.js";

const ANSWER_LABEL: Record<string, string> = {
  yes: "Yes",
  partial: "Partly",
  no: "No",
  unknown: "Don't know",
  not_applicable: "Not applicable",
};
const LEVEL_LABEL: Record<string, string> = { low: "Low", moderate: "Moderate", high: "High", very_high: "Very high" };
const LEVEL_PILL: Record<string, string> = {
  low: "pill-full",
  moderate: "pill-partial",
  high: "pill-none",
  very_high: "pill-none",
};

const LevelPill = ({ level }: { level: string }) => (
  <span class={`pill ${LEVEL_PILL[level] ?? "pill-none"}`}>{LEVEL_LABEL[level] ?? level}</span>
);

/** An id usable in HTML for a question id (`data.encryption_at_rest` → `q-data-encryption_at_rest`). */
const domId = (questionId: string) => `q-${questionId.replace(/[^A-Za-z0-9_-]/g, "-")}`;

/** One question: its answers as radio buttons, the scans' answer marked as pre-filled, a note, its problem. */
function QuestionFields({
  q,
  value,
  error,
  disabled,
}: {
  q: Question;
  value: { answer: string; note: string };
  error: string | undefined;
  disabled: boolean;
}) {
  const id = domId(q.id);
  const described = [q.prefill ? `${id}-prefill` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <fieldset class="question" id={id} aria-describedby={described || undefined}>
      <legend>{q.text}</legend>
      <p class="muted small">{q.controls.join(", ")}</p>
      {q.prefill && (
        <p class="prefill small" id={`${id}-prefill`}>
          <strong>Pre-filled from {q.prefill.source}</strong>: {q.prefill.detail}; the scans answer "
          {ANSWER_LABEL[q.prefill.answer] ?? q.prefill.answer}". You can change it.
        </p>
      )}
      {q.flag === "overstates" && (
        <p class="small flag">
          Your stored answer claims more than the scans show: the assessment uses the scans' answer.
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
      <div class="choices">
        {Object.entries(ANSWER_LABEL).map(([answer, label]) => (
          <label>
            <input
              type="radio"
              name={answerField(q.id)}
              value={answer}
              checked={value.answer === answer}
              disabled={disabled}
            />{" "}
            {label}
          </label>
        ))}
      </div>
      <label for={`${id}-note`} class="small">
        Note (optional)
      </label>
      <textarea id={`${id}-note`} name={noteField(q.id)} rows={2} maxlength={NOTE_MAX} disabled={disabled}>
        {value.note}
      </textarea>
    </fieldset>
  );
}

/** The latest assessment in one line, linking its result. */
function LatestAssessment({ npi, view }: { npi: string; view: RiskAssessmentView }) {
  const { status, report } = view.assessment;
  if (!report) return <p>No risk assessment has been run for this practice yet.</p>;
  return (
    <p>
      Latest assessment: version {report.version} of {report.assessed_at.slice(0, 10)}, overall{" "}
      <LevelPill level={report.overall_level} /> ({status === "current" ? `valid until ${report.valid_until}` : status}
      ). <a href={`/portal/practices/${npi}/risk-assessment/result`}>See the result</a>
    </p>
  );
}

/**
 * The security risk assessment questionnaire as one guided page: the seven sections of the HHS/ONC SRA Tool, each
 * question with its answers, the scans' answer pre-filled and marked, and one submit that runs the assessment at its
 * price (hipaa.sra). Roles that cannot change records see it read-only.
 */
export function RiskAssessmentPage({
  viewer,
  practiceName,
  view,
  state,
  canRun,
  price,
}: {
  viewer: Viewer;
  practiceName: string;
  view: RiskAssessmentView;
  state: SraFormState;
  canRun: boolean;
  price: number;
}) {
  const npi = viewer.npi!;
  const problems = Object.keys(state.errors).length;
  return (
    <PortalPage title={`Risk assessment · ${practiceName}`} viewer={viewer} active="risk">
      {state.formError && <Notice kind="error">{state.formError}</Notice>}
      {problems > 0 && (
        <Notice kind="error">
          {problems === 1 ? "One answer needs" : `${problems} answers need`} attention (marked below). Nothing was
          charged; your answers are kept.
        </Notice>
      )}
      <section class="card">
        <LatestAssessment npi={npi} view={view} />
        <p class="muted small">
          Questionnaire {view.questionnaire.version}. Answers the scans can give are pre-filled and marked; change them
          where you know better (an answer that claims more than the scans show is flagged, and the scans' answer used).
          Running the assessment costs {price} credits, as the API charges (hipaa.sra).
        </p>
        <nav aria-label="Sections">
          <ol class="small">
            {view.questionnaire.sections.map((s) => (
              <li>
                <a href={`#s-${s.id}`}>{s.title}</a>
              </li>
            ))}
          </ol>
        </nav>
      </section>
      <form method="post" action={`/portal/practices/${npi}/risk-assessment`}>
        <CsrfField token={viewer.csrf} />
        {view.questionnaire.sections.map((s) => (
          <section class="card" id={`s-${s.id}`}>
            <h2>{s.title}</h2>
            {s.questions.map((q) => (
              <QuestionFields
                q={q}
                value={state.values[q.id] ?? { answer: "", note: "" }}
                error={state.errors[q.id]}
                disabled={!canRun}
              />
            ))}
          </section>
        ))}
        {canRun ? (
          <p>
            <button type="submit">Run the risk assessment ({price} credits)</button>
          </p>
        ) : (
          <p class="muted">Your role can read the questionnaire; an owner or manager runs the assessment.</p>
        )}
      </form>
    </PortalPage>
  );
}

/** The result of a security risk assessment: overall level, the risk register, gaps and the remediation plan. */
export function SraResultPage({
  viewer,
  practiceName,
  report,
  justRun,
  price,
}: {
  viewer: Viewer;
  practiceName: string;
  report: SraReport;
  justRun: boolean;
  price: number;
}) {
  const npi = viewer.npi!;
  return (
    <PortalPage title={`Risk assessment result · ${practiceName}`} viewer={viewer} active="risk">
      {justRun && <Notice kind="ok">The risk assessment was run and stored ({price} credits).</Notice>}
      <section class="card">
        <h2>
          Overall risk: <LevelPill level={report.overall_level} />
        </h2>
        <p>
          Version {report.version}, assessed {report.assessed_at.slice(0, 10)}, valid until {report.valid_until}.{" "}
          {report.unanswered.length > 0 && `${report.unanswered.length} questions unanswered. `}
          <a href={`/portal/practices/${npi}/risk-assessment`}>Back to the questionnaire</a>
        </p>
        <p class="muted small">{report.methodology}</p>
      </section>
      <section class="card">
        <h2>Risk register</h2>
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Risk</th>
              <th scope="col">Likelihood × impact</th>
              <th scope="col">Level</th>
              <th scope="col">Controls missing</th>
            </tr>
          </thead>
          <tbody>
            {report.register.map((r) => (
              <tr>
                <td>
                  {r.threat}
                  <span class="muted small"> · {r.vulnerability}</span>
                </td>
                <td class="num">
                  {r.likelihood} × {r.impact} = {r.score}
                </td>
                <td>
                  <LevelPill level={r.level} />
                </td>
                <td class="small">{r.controls_missing.length === 0 ? "—" : r.controls_missing.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {report.contradictions.length > 0 && (
        <section class="card">
          <h2>Answers the scans contradict</h2>
          <ul>
            {report.contradictions.map((c) => (
              <li>
                {c.question}: answered "{c.response}", the scans show "{c.evidence}" ({c.kind})
              </li>
            ))}
          </ul>
        </section>
      )}
      <section class="card">
        <h2>Remediation plan</h2>
        {report.remediation_plan.length === 0 ? (
          <p class="muted">Nothing to remediate.</p>
        ) : (
          <table class="list">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Action</th>
                <th scope="col">Level</th>
                <th scope="col">Due</th>
              </tr>
            </thead>
            <tbody>
              {report.remediation_plan.map((p) => (
                <tr>
                  <td class="num">{p.priority}</td>
                  <td>
                    {p.action}
                    <span class="muted small"> · {p.controls.join(", ")}</span>
                  </td>
                  <td>
                    <LevelPill level={p.level} />
                  </td>
                  <td>{p.due_on}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {report.gaps.length > 0 && (
        <section class="card">
          <h2>Control gaps</h2>
          <ul class="small">
            {report.gaps.map((g) => (
              <li>
                {g.control}: {g.questions.join(", ")}
              </li>
            ))}
          </ul>
        </section>
      )}
    </PortalPage>
  );
}
