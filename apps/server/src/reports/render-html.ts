import { SEVERITIES } from "@hcs/protocol";
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import {
  AUDIT_STATE_LABEL,
  AUDIT_STATE_MEANING,
  COVERAGE_LABEL,
  formatDate,
  formatDateTime,
  GRADE_COLOUR,
  GRADE_MEANING,
  SEVERITY_LABEL,
  SOURCE_LABEL,
  STATE_LABEL,
  trendScale,
} from "./format.js";
import type { ReportFinding, ReportModel, ReportTrend } from "./model.js";
import { REPORT_CSP, REPORT_CSS } from "./report-style.js";

/*
 * The HTML report, laid out from the report model with hono's `html` tagged templates: every interpolated value is
 * escaped by the library (a practice name or a finding's evidence cannot inject markup); `raw` is used for one thing
 * only, the constant stylesheet, whose text must reach the <style> element unescaped.
 */

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const pill = (cls: string, text: string) => html`<span class="pill ${cls}">${text}</span>`;

/** The score trend as an inline SVG line (scores 0–100, the grade bands dashed), no script, no style attribute. */
function trendChart(trend: ReportTrend): Html {
  const w = 320;
  const h = 130;
  const pad = { l: 28, r: 12, t: 10, b: 22 };
  const n = trend.points.length;
  const x = (i: number) => (n === 1 ? (pad.l + w - pad.r) / 2 : pad.l + (i * (w - pad.l - pad.r)) / (n - 1));
  const scale = trendScale(trend.points.map((p) => p.score));
  const y = (score: number) => pad.t + ((100 - score) * (h - pad.t - pad.b)) / (100 - scale.floor);
  const bands = scale.bands.map(
    (s) =>
      html`<line x1="${pad.l}" x2="${w - pad.r}" y1="${y(s)}" y2="${y(s)}" stroke="#cbd5e1" stroke-dasharray="3 3"/><text x="${pad.l - 4}" y="${y(s) + 3}" font-size="8" text-anchor="end" fill="#64748b">${s}</text>`,
  );
  const line = trend.points.map((p, i) => `${x(i).toFixed(1)},${y(p.score).toFixed(1)}`).join(" ");
  const dots = trend.points.map(
    (p, i) =>
      html`<circle cx="${x(i).toFixed(1)}" cy="${y(p.score).toFixed(1)}" r="3.5" fill="${GRADE_COLOUR[p.grade]}"><title>${formatDate(p.at)}: ${p.score} (${p.grade})</title></circle>`,
  );
  const first = trend.points[0];
  const last = trend.points.at(-1);
  return html`<svg viewBox="0 0 ${w} ${h}" role="img" aria-label="Score trend: ${trend.sentence}">
    ${bands}
    <polyline points="${line}" fill="none" stroke="#1e3a8a" stroke-width="2"/>
    ${dots}
    ${first ? html`<text x="${pad.l}" y="${h - 6}" font-size="8" fill="#64748b">${formatDate(first.at)}</text>` : ""}
    ${last && n > 1 ? html`<text x="${w - pad.r}" y="${h - 6}" font-size="8" text-anchor="end" fill="#64748b">${formatDate(last.at)}</text>` : ""}
  </svg>`;
}

function scoreBar(score: number | null): Html {
  if (score === null) return html`<span class="muted">no data</span>`;
  const colour =
    score >= 90 ? "#15803d" : score >= 80 ? "#4d7c0f" : score >= 70 ? "#b45309" : score >= 60 ? "#c2410c" : "#b91c1c";
  return html`<svg viewBox="0 0 100 8" preserveAspectRatio="none" role="img" aria-label="${score} out of 100"><rect width="100" height="8" fill="#e2e8f0"/><rect width="${score}" height="8" fill="${colour}"/></svg>`;
}

function summarySection(m: ReportModel): Html {
  const s = m.summary;
  return html`<section aria-labelledby="summary">
    <h2 id="summary">Executive summary</h2>
    <div class="summary">
      <div class="grade grade-${s.grade}" role="img" aria-label="Grade ${s.grade}, ${s.score} out of 100">
        <span class="letter">${s.grade}</span><span class="score">${s.score} / 100</span>
      </div>
      <div>
        <p class="headline">${s.headline}</p>
        <p class="as-of">${s.statement}</p>
        <p class="muted">${GRADE_MEANING[s.grade]}. Scored ${formatDateTime(s.scan_date)} with scoring model ${s.scoring_version}.</p>
        <ul class="counts" aria-label="Open findings by severity">
          ${SEVERITIES.map((sev) => html`<li>${pill(`sev-${sev}`, `${s.findings_by_severity[sev]} ${SEVERITY_LABEL[sev]}`)}</li>`)}
        </ul>
      </div>
    </div>
    ${s.newer ? html`<div class="panel newer" role="note"><h3>A newer grade exists</h3><p>${s.newer.statement}</p></div>` : ""}
    ${
      s.caps.length > 0
        ? html`<div class="panel caps"><h3>Grade caps</h3><p>Whatever the average, these findings limit the grade:</p>
            <ul>${s.caps.map((c) => html`<li><strong>At most ${c.max_grade}:</strong> ${c.reason}</li>`)}</ul></div>`
        : ""
    }
    <div class="panel trend">
      <div><h3>Trend</h3><p>${s.trend.sentence}</p>
        <p class="muted">${s.trend.points.length} most recent grade${s.trend.points.length === 1 ? "" : "s"} up to this scan.</p></div>
      ${trendChart(s.trend)}
    </div>
    ${
      s.fix_first.length > 0
        ? html`<div class="panel"><h3>Fix first</h3><ol>
            ${s.fix_first.map((f) => html`<li>${pill(`sev-${f.severity}`, SEVERITY_LABEL[f.severity])} <a href="#${f.ref}">${f.ref}</a> ${f.title}</li>`)}
          </ol></div>`
        : ""
    }
  </section>`;
}

function categoriesSection(m: ReportModel): Html {
  return html`<section aria-labelledby="categories">
    <h2 id="categories">Results by category</h2>
    <table>
      <thead><tr><th>Category</th><th>Source</th><th class="num">Weight</th><th class="num">Score</th><th></th><th>Open findings</th></tr></thead>
      <tbody>
        ${m.categories.map((c) => {
          const open = SEVERITIES.filter((s) => c.findings[s] > 0);
          return html`<tr><td>${c.title}</td><td>${SOURCE_LABEL[c.source]}</td><td class="num">${c.weight}</td>
            <td class="num">${c.score ?? "—"}</td><td class="bar">${scoreBar(c.score)}</td>
            <td>${open.length === 0 ? html`<span class="muted">none</span>` : open.map((s) => html`${pill(`sev-${s}`, `${c.findings[s]} ${SEVERITY_LABEL[s]}`)} `)}</td></tr>`;
        })}
      </tbody>
    </table>
    <p class="muted">Overall score = the weighted average of the categories with data; categories without data are listed under Scan coverage.</p>
  </section>`;
}

function requirementsSection(m: ReportModel): Html {
  const r = m.requirements;
  const refs = new Set(m.findings.map((f) => f.ref));
  return html`<section aria-labelledby="requirements">
    <h2 id="requirements">The 13 HIPAA requirements</h2>
    <p>${r.note}</p>
    ${
      r.items.length === 0
        ? ""
        : html`<table>
      <thead><tr><th class="num">#</th><th>Requirement</th><th>State</th><th>Evidence</th><th>Last verified</th></tr></thead>
      <tbody>
        ${r.items.map(
          (item) => html`<tr>
            <td class="num">${item.number}</td>
            <td><strong>${item.title}</strong><br/><span class="muted">${item.controls.join(", ")}</span></td>
            <td>${pill(`state-${item.state}`, STATE_LABEL[item.state])}</td>
            <td>${item.evidence.map(
              (e) =>
                html`<div>${e.label}: ${STATE_LABEL[e.state].toLowerCase()} — ${e.detail}${
                  e.findings.length > 0
                    ? html` (${e.findings.map((f, i) => html`${i > 0 ? ", " : ""}${refs.has(f) ? html`<a href="#${f}">${f}</a>` : f}`)})`
                    : ""
                }</div>`,
            )}</td>
            <td>${item.last_verified ? formatDate(item.last_verified) : html`<span class="muted">never</span>`}</td>
          </tr>`,
        )}
      </tbody>
    </table>`
    }
  </section>`;
}

function findingArticle(f: ReportFinding): Html {
  return html`<article class="finding sev-border-${f.severity}" id="${f.ref}">
    <header><span class="ref">${f.ref}</span>${pill(`sev-${f.severity}`, SEVERITY_LABEL[f.severity])}<h3>${f.title}</h3></header>
    <p class="facts">${SOURCE_LABEL[f.source]} · ${f.category_title}${f.host ? html` · host ${f.host}` : ""} · first seen ${formatDate(f.first_seen)}, last seen ${formatDate(f.last_seen)}</p>
    <p>${f.detail}</p>
    ${f.cap ? html`<p><strong>Caps the grade at ${f.cap.max_grade}:</strong> ${f.cap.reason}</p>` : ""}
    <h4>Evidence</h4>
    ${
      f.evidence.length === 0
        ? html`<p class="muted">The check found nothing to show (the record or setting is absent).</p>`
        : html`<dl class="evidence">${f.evidence.map((e) => html`<dt>${e.label}</dt><dd>${e.value}</dd>`)}</dl>`
    }
    <h4>How to fix</h4>
    <p class="fix">${f.remediation}</p>
    <h4>HIPAA controls (45 CFR)</h4>
    <ul class="controls">${f.controls.map(
      (c) =>
        html`<li><strong>${c.id}</strong> ${c.title}${c.requirement ? html` <span class="muted">(${c.requirement})</span>` : ""}</li>`,
    )}</ul>
  </article>`;
}

function findingsSection(m: ReportModel): Html {
  return html`<section aria-labelledby="findings">
    <h2 id="findings">Findings (${m.summary.total_findings})</h2>
    ${
      m.findings.length === 0
        ? html`<p>No open findings: every check that ran passed.</p>`
        : html`<p class="muted">Every open finding of the practice at the time of this scan, most severe first.</p>${m.findings.map(findingArticle)}`
    }
  </section>`;
}

function coverageSection(m: ReportModel): Html {
  const c = m.coverage;
  return html`<section aria-labelledby="coverage">
    <h2 id="coverage">Scan coverage and dates</h2>
    <table>
      <thead><tr><th>Scan</th><th>Dispatched</th><th>Started</th><th>Completed</th></tr></thead>
      <tbody><tr><td>Full scan <code>${m.job.id}</code></td><td>${formatDateTime(m.job.created_at)}</td>
        <td>${m.job.started_at ? formatDateTime(m.job.started_at) : "—"}</td><td>${formatDateTime(m.job.completed_at)}</td></tr></tbody>
    </table>
    <table>
      <thead><tr><th>Source</th><th>Coverage</th><th>Categories with data</th><th>Without data</th></tr></thead>
      <tbody>${c.sources.map(
        (s) => html`<tr><td>${SOURCE_LABEL[s.source]}</td><td>${COVERAGE_LABEL[s.status]}</td>
          <td>${s.with_data.length > 0 ? s.with_data.join("; ") : html`<span class="muted">none</span>`}</td>
          <td>${s.without_data.length > 0 ? s.without_data.join("; ") : html`<span class="muted">none</span>`}</td></tr>`,
      )}</tbody>
    </table>
    ${
      c.hosts.length > 0
        ? html`<table><thead><tr><th>Scanner host</th><th class="num">Phases assessed</th><th class="num">Expired</th><th>Not assessed</th><th>Latest result</th></tr></thead>
          <tbody>${c.hosts.map(
            (
              h,
            ) => html`<tr><td>${h.host}</td><td class="num">${h.assessed_phases}</td><td class="num">${h.expired_phases}</td>
              <td>${h.not_assessed.length > 0 ? h.not_assessed.join("; ") : html`<span class="muted">none</span>`}</td>
              <td>${h.latest_result_at ? formatDateTime(h.latest_result_at) : "—"}</td></tr>`,
          )}</tbody></table>`
        : c.hosts_note
          ? html`<p class="muted">${c.hosts_note}</p>`
          : ""
    }
    ${
      c.assessments.length > 0
        ? html`<table><thead><tr><th>Last assessed</th><th>Source</th><th>Subject</th></tr></thead>
          <tbody>${c.assessments.map((a) => html`<tr><td>${formatDateTime(a.assessed_at)}</td><td>${SOURCE_LABEL[a.source]}</td><td>${a.subject}</td></tr>`)}</tbody></table>`
        : ""
    }
  </section>`;
}

function auditSection(m: ReportModel): Html {
  const a = m.audit;
  return html`<section aria-labelledby="audit">
    <h2 id="audit">Audit proof references</h2>
    <p>Each scan this report rests on was logged as an event in HCS's append-only audit log (an RFC 9162 Merkle tree
      whose checkpoints are signed${a.checkpoint_size !== null ? html`; the latest signed checkpoint covers ${a.checkpoint_size} events` : html`; no checkpoint has been signed yet`}).</p>
    <table>
      <thead><tr><th>Record</th><th>Logged</th><th class="num">Event id</th><th class="num">Leaf index</th><th>State</th><th>Proof</th></tr></thead>
      <tbody>${a.records.map(
        (r) => html`<tr><td>${r.label}<br/><code>${r.resource}</code></td><td>${formatDateTime(r.at)}</td>
          <td class="num">${r.event_id ?? "—"}</td><td class="num">${r.leaf_index ?? "—"}</td>
          <td>${pill(`audit-${r.state}`, AUDIT_STATE_LABEL[r.state])}</td><td>${r.proof_path ? html`<code>${r.proof_path}</code>` : "—"}</td></tr>`,
      )}</tbody>
    </table>
    <p class="muted">${AUDIT_STATE_MEANING}</p>
    <h3>How to verify</h3>
    <ol class="steps">${a.how_to_verify.map((step) => html`<li>${step}</li>`)}</ol>
  </section>`;
}

/** The HTML page and the Content-Security-Policy it must be served with. */
export interface RenderedHtml {
  readonly html: string;
  readonly contentSecurityPolicy: string;
}

/** Lays the report model out as one self-contained, print-friendly HTML page (no scripts, one hashed stylesheet). */
export async function renderReportHtml(m: ReportModel): Promise<RenderedHtml> {
  const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<meta name="referrer" content="no-referrer"/>
<title>HIPAA compliance report: ${m.practice.name} (NPI ${m.practice.npi}), ${formatDate(m.job.completed_at)}</title>
<style>${raw(REPORT_CSS)}</style>
</head>
<body>
<header class="masthead">
  <div><div class="brand">HCS · Healthcare Compliance Service</div><h1>HIPAA compliance report</h1>
    <div class="practice"><strong>${m.practice.name}</strong> · NPI ${m.practice.npi}</div></div>
  <div class="meta">Scan completed ${formatDateTime(m.job.completed_at)}<br/>Report generated ${formatDateTime(m.generated_at)}</div>
</header>
<main>
${summarySection(m)}
${categoriesSection(m)}
${requirementsSection(m)}
${findingsSection(m)}
${coverageSection(m)}
${auditSection(m)}
</main>
<footer>Report of scan job <code>${m.job.id}</code> (${m.job.report_path}) · scoring model ${m.summary.scoring_version} ·
  this report lists configuration facts, counts and locations only; it contains no patient information.</footer>
</body>
</html>`;
  return { html: String(await page), contentSecurityPolicy: REPORT_CSP };
}
