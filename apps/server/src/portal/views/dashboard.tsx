import { CATEGORIES, type ComplianceState, PHASES, SEVERITIES } from "@hcs/protocol";
import type { GradePoint } from "../../services/grade-history.js";
import { type GradeStanding, standingSentence } from "../../services/grade-standing.js";
import { CategoryBars, ScoreTrendChart } from "./charts.js";
import { FindingCard, type StoredFinding } from "./finding-card.js";
import { PortalPage, type Viewer } from "./layout.js";

const SOURCE_LABEL = { external: "External scan", internal: "Internal scanner", administrative: "Records" } as const;
const REQUIREMENT_PILL = {
  met: "pill-full",
  partial: "pill-partial",
  not_met: "pill-not-met",
  unknown: "pill-unknown",
} as const;
const REQUIREMENT_WORD = { met: "met", partial: "partial", not_met: "not met", unknown: "unknown" } as const;

/** What a piece of a requirement's evidence is, in the words the report uses. */
function evidenceLabel(kind: string, ref: string): string {
  if (kind === "phase") return `Scanner: ${PHASES.find((p) => p.id === ref)?.title ?? ref}`;
  if (kind === "external_check") return `External scan: ${CATEGORIES[ref as keyof typeof CATEGORIES]?.title ?? ref}`;
  if (kind === "audit_log") return "HCS audit log of the evidence";
  return `Records: ${ref.replace(/_/g, " ")}`;
}

/**
 * The 13 HIPAA requirements as hipaa.compliance_state states them now, each opening to its evidence and what holds
 * it back (requirements 6 and 13: docs/scoring.md §9).
 */
function RequirementsSection({ state }: { state: ComplianceState }) {
  const n = state.summary;
  return (
    <section class="card">
      <h2>HIPAA requirements</h2>
      <p class="muted small">
        {n.met} met, {n.partial} partial, {n.not_met} not met, {n.unknown} unknown (not assessed, or no evidence yet).
      </p>
      <ol class="requirements">
        {state.requirements.map((r) => (
          <li>
            <details>
              <summary>
                <span class={`pill ${REQUIREMENT_PILL[r.state]}`}>{REQUIREMENT_WORD[r.state]}</span> {r.title}
              </summary>
              <ul>
                {r.evidence.map((e) => (
                  <li>
                    <strong>{evidenceLabel(e.kind, e.ref)}</strong>: {REQUIREMENT_WORD[e.state]} — {e.detail}
                    {e.findings.length > 0 && <span class="muted small"> ({e.findings.join(", ")})</span>}
                  </li>
                ))}
              </ul>
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The practice's dashboard: grade and score, the statement of its standing (score, grade, open findings by severity,
 * coverage: the sentence a scan's report prints), categories, trend, coverage and caps, the most severe open findings.
 */
export function DashboardPage({
  viewer,
  practiceName,
  standing,
  history,
  topFindings,
  requirements,
}: {
  viewer: Viewer;
  practiceName: string;
  standing: GradeStanding | null;
  history: readonly GradePoint[];
  topFindings: readonly StoredFinding[];
  /** The 13 requirements now (hipaa.compliance_state). */
  requirements: ComplianceState;
}) {
  const grade = standing?.record;
  if (!standing || !grade)
    return (
      <PortalPage title={practiceName} viewer={viewer} active="dashboard">
        <p>
          No grade yet: run a scan. Install the scanner from the{" "}
          <a href={`/portal/practices/${viewer.npi}/scanner`}>Scanner</a> page.
        </p>
      </PortalPage>
    );
  return (
    <PortalPage title={practiceName} viewer={viewer} active="dashboard">
      <p class="muted">
        NPI {grade.npi} · assessed {grade.scan_date.slice(0, 16).replace("T", " ")} UTC · scoring{" "}
        {grade.scoring_version}
      </p>
      <section class="cards">
        <div class="card grade-card">
          <h2>Grade</h2>
          <p class={`grade grade-${grade.grade}`}>
            <span class="visually-hidden">Grade </span>
            {grade.grade}
          </p>
          <p class="score">
            <strong>{grade.compliance_score}</strong> / 100
          </p>
          <ul class="severity-counts" aria-label="Open findings by severity">
            {SEVERITIES.map((s) => (
              <li>
                <span class={`sev sev-${s}`}>
                  {standing.findings_by_severity[s]} {s}
                </span>
              </li>
            ))}
          </ul>
        </div>
        <div class="card wide">
          <h2>Score trend</h2>
          <ScoreTrendChart points={history} />
        </div>
      </section>
      <p class="standing">Now: {standingSentence(standing)}</p>
      <section class="card">
        <h2>Categories</h2>
        <CategoryBars categories={grade.categories} />
      </section>
      <section class="cards">
        <div class="card">
          <h2>Coverage</h2>
          <ul class="coverage">
            {(Object.keys(SOURCE_LABEL) as (keyof typeof SOURCE_LABEL)[]).map((s) => {
              const c = grade.coverage[s];
              return (
                <li>
                  <span class={`pill pill-${c.status}`}>{c.status}</span> {SOURCE_LABEL[s]}
                  {c.categories_without_data.length > 0 && (
                    <span class="muted small"> — no data: {c.categories_without_data.join(", ")}</span>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
        <div class="card">
          <h2>Grade caps</h2>
          {grade.caps_applied.length === 0 ? (
            <p class="muted">No cap applies: the grade follows the score.</p>
          ) : (
            <ul>
              {grade.caps_applied.map((c) => (
                <li>
                  At most <strong>{c.max_grade}</strong>: {c.reason}
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
      <RequirementsSection state={requirements} />
      <section class="card">
        <h2>Top findings</h2>
        {topFindings.length === 0 ? (
          <p class="muted">No open findings.</p>
        ) : (
          topFindings.map((f) => <FindingCard finding={f} />)
        )}
        <p>
          <a href={`/portal/practices/${grade.npi}/findings`}>All findings →</a>
        </p>
      </section>
    </PortalPage>
  );
}
