import { CATEGORIES, type FindingsPage, HIPAA_CONTROLS } from "@hcs/protocol";

/** A finding as the findings operation answers it. */
export type StoredFinding = FindingsPage["findings"][number];

const controlTitle = new Map<string, string>(HIPAA_CONTROLS.map((c) => [c.id, c.title]));

export const SeverityBadge = ({ severity }: { severity: string }) => (
  <span class={`sev sev-${severity}`}>{severity}</span>
);

/**
 * One finding, collapsed to its title; opening it (a <details>, no script) shows what was seen, the evidence, the
 * fix and the HIPAA controls it bears on.
 */
export function FindingCard({ finding, open = false }: { finding: StoredFinding; open?: boolean }) {
  const evidence = Object.entries(finding.evidence ?? {});
  return (
    <details class="finding" open={open} id={`finding-${finding.id}`}>
      <summary>
        <SeverityBadge severity={finding.severity} />
        <span class="finding-title">{finding.title}</span>
        <span class="muted small">
          {finding.source}
          {finding.host ? ` · ${finding.host}` : ""}
        </span>
      </summary>
      <div class="finding-body">
        <p>{finding.detail}</p>
        <h3>How to fix</h3>
        <p>{finding.remediation}</p>
        {evidence.length > 0 && (
          <>
            <h3>Evidence</h3>
            <dl class="evidence">
              {evidence.map(([k, v]) => (
                <>
                  <dt>{k}</dt>
                  <dd>
                    <code>{typeof v === "string" ? v : JSON.stringify(v)}</code>
                  </dd>
                </>
              ))}
            </dl>
          </>
        )}
        <h3>HIPAA controls</h3>
        <ul class="controls">
          {finding.controls.map((c) => (
            <li>
              <strong>§{c}</strong> {controlTitle.get(c) ?? ""}
            </li>
          ))}
        </ul>
        <p class="muted small">
          {CATEGORIES[finding.category].title} · check {finding.check_id} · first seen {finding.first_seen.slice(0, 10)}
          , last seen {finding.last_seen.slice(0, 10)}
          {finding.grade_cap ? ` · caps the grade (${finding.grade_cap})` : ""}
        </p>
      </div>
    </details>
  );
}
