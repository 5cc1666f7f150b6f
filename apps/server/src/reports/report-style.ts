import { createHash } from "node:crypto";

/**
 * The HTML report's one stylesheet, inlined so a downloaded report is a single self-contained file. The page is
 * served with a CSP that allows exactly this stylesheet by its hash (no `unsafe-inline`, no scripts); the markup
 * has no style attributes, so nothing else would be allowed to style it.
 */
export const REPORT_CSS = `
:root { --ink: #0f172a; --muted: #475569; --line: #cbd5e1; --soft: #f1f5f9; --accent: #1e3a8a; }
* { box-sizing: border-box; }
html { font: 10.5pt/1.45 "Helvetica Neue", Helvetica, Arial, sans-serif; color: var(--ink); background: #fff; }
body { margin: 0 auto; max-width: 60rem; padding: 2rem 2.5rem 3rem; }
h1, h2, h3 { line-height: 1.2; color: var(--accent); }
h1 { font-size: 1.9rem; margin: 0; }
h2 { font-size: 1.35rem; margin: 2.2rem 0 0.8rem; padding-bottom: 0.3rem; border-bottom: 2px solid var(--accent); }
h3 { font-size: 1.05rem; margin: 0; color: var(--ink); }
p { margin: 0.4rem 0; }
a { color: var(--accent); }
code { font: 0.9em/1.4 Menlo, Consolas, monospace; background: var(--soft); padding: 0 0.2em; border-radius: 3px; overflow-wrap: anywhere; }
.masthead { display: flex; justify-content: space-between; align-items: flex-end; gap: 1rem; border-bottom: 4px solid var(--accent); padding-bottom: 0.8rem; }
.masthead .brand { font-size: 0.8rem; letter-spacing: 0.12em; text-transform: uppercase; color: var(--muted); }
.masthead .practice { font-size: 1.15rem; margin-top: 0.3rem; }
.masthead .meta { text-align: right; color: var(--muted); font-size: 0.85rem; }
.muted { color: var(--muted); }
.summary { display: grid; grid-template-columns: 9rem 1fr; gap: 1.5rem; align-items: start; margin-top: 1.2rem; }
.grade { width: 9rem; height: 9rem; border-radius: 12px; color: #fff; display: flex; flex-direction: column; align-items: center; justify-content: center; }
.grade .letter { font-size: 4.2rem; font-weight: 700; line-height: 1; }
.grade .score { font-size: 1rem; margin-top: 0.3rem; }
.grade-A { background: #15803d; } .grade-B { background: #4d7c0f; } .grade-C { background: #b45309; }
.grade-D { background: #c2410c; } .grade-F { background: #b91c1c; }
.headline { font-size: 1.1rem; font-weight: 600; }
.counts { display: flex; flex-wrap: wrap; gap: 0.4rem; margin: 0.6rem 0; padding: 0; list-style: none; }
.pill { display: inline-block; padding: 0.1rem 0.55rem; border-radius: 999px; font-size: 0.8rem; font-weight: 600; color: #fff; white-space: nowrap; }
.sev-critical { background: #7f1d1d; } .sev-high { background: #b91c1c; } .sev-medium { background: #c2410c; }
.sev-low { background: #a16207; } .sev-info { background: #475569; }
.state-met { background: #15803d; } .state-partial { background: #b45309; } .state-not_met { background: #b91c1c; }
.state-unknown { background: #64748b; }
.audit-proved { background: #15803d; } .audit-pending { background: #b45309; } .audit-not_logged { background: #64748b; }
.panel { border: 1px solid var(--line); border-radius: 8px; padding: 0.8rem 1rem; margin: 0.8rem 0; break-inside: avoid; }
.panel h3 { margin-bottom: 0.4rem; }
.panel.newer { border-color: #b45309; background: #fffbeb; }
.caps { border-left: 4px solid #b91c1c; background: #fef2f2; }
.trend { display: grid; grid-template-columns: 1fr 26rem; gap: 1rem; align-items: center; }
.trend svg { width: 100%; height: auto; }
table { width: 100%; border-collapse: collapse; margin: 0.5rem 0; font-size: 0.92rem; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--line); }
th { background: var(--soft); font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.bar { width: 11rem; }
td.bar svg { width: 10rem; height: 0.8rem; display: block; }
.finding { border: 1px solid var(--line); border-left-width: 6px; border-radius: 6px; padding: 0.8rem 1rem; margin: 0.9rem 0; break-inside: avoid; }
.finding.sev-border-critical { border-left-color: #7f1d1d; } .finding.sev-border-high { border-left-color: #b91c1c; }
.finding.sev-border-medium { border-left-color: #c2410c; } .finding.sev-border-low { border-left-color: #a16207; }
.finding.sev-border-info { border-left-color: #475569; }
.finding header { display: flex; gap: 0.6rem; align-items: baseline; flex-wrap: wrap; }
.finding .ref { font-weight: 700; color: var(--muted); }
.finding .facts { color: var(--muted); font-size: 0.85rem; margin: 0.2rem 0 0.5rem; }
.finding h4 { margin: 0.7rem 0 0.2rem; font-size: 0.8rem; letter-spacing: 0.06em; text-transform: uppercase; color: var(--muted); }
.fix { background: #ecfdf5; border-left: 4px solid #15803d; padding: 0.45rem 0.7rem; border-radius: 4px; }
dl.evidence { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: 0.15rem 0.8rem; margin: 0; font-size: 0.88rem; }
dl.evidence dt { color: var(--muted); }
dl.evidence dd { margin: 0; overflow-wrap: anywhere; }
ul.controls { margin: 0; padding-left: 1.1rem; font-size: 0.9rem; }
ol.steps li { margin: 0.3rem 0; }
footer { margin-top: 2.5rem; padding-top: 0.6rem; border-top: 1px solid var(--line); color: var(--muted); font-size: 0.8rem; }
@page { size: Letter; margin: 16mm 14mm; }
@media print {
  html { font-size: 9.5pt; }
  body { max-width: none; padding: 0; }
  h2 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
  .grade, .pill, th, .fix, .caps { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;

/** The CSP source for the stylesheet: its SHA-256, as a `<style>` element's text is hashed by browsers. */
export const REPORT_CSS_HASH = `'sha256-${createHash("sha256").update(REPORT_CSS, "utf8").digest("base64")}'`;

/**
 * The report page's Content-Security-Policy: nothing loads or runs but the inline stylesheet (by hash) and the
 * inline SVG charts; no scripts, no forms, no framing, no base-URL changes.
 */
export const REPORT_CSP = [
  "default-src 'none'",
  `style-src ${REPORT_CSS_HASH}`,
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");
