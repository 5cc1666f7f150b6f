/** The portal's stylesheet, served at /portal/assets/portal.css (a file, so the CSP needs no 'unsafe-inline'). */
export const PORTAL_CSS = `
:root { --ink:#101828; --muted:#475467; --line:#d0d5dd; --soft:#f2f4f7; --bg:#f8fafc; --brand:#1d5fbf;
  --brand-dark:#174ea6; --ok:#1a7f37; --warn:#9a6700; --bad:#b42318; font-family: system-ui, -apple-system,
  "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: var(--bg); }
* { box-sizing: border-box; }
body { margin: 0; line-height: 1.5; }
a { color: var(--brand-dark); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible {
  outline: 3px solid #84adff; outline-offset: 2px; }
h1 { font-size: 1.6rem; margin: 0 0 0.75rem; }
h2 { font-size: 1.1rem; margin: 0 0 0.75rem; }
h3 { font-size: 0.95rem; margin: 1rem 0 0.25rem; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.88em; }
.muted { color: var(--muted); }
.small { font-size: 0.85rem; }
.big { font-size: 1.8rem; font-weight: 650; margin: 0; text-transform: capitalize; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.brand { display: inline-flex; align-items: center; gap: 0.5rem; font-weight: 700; color: var(--ink); text-decoration: none; }
.brand-mark { display: inline-grid; place-items: center; width: 1.8rem; height: 1.8rem; border-radius: 0.45rem;
  background: var(--brand); color: #fff; font-weight: 800; }
.topbar { display: flex; align-items: center; gap: 1.25rem; padding: 0.7rem 1.5rem; background: #fff;
  border-bottom: 1px solid var(--line); }
.topbar .account { font-weight: 600; }
.topbar .who { margin-left: auto; color: var(--muted); font-size: 0.9rem; }
.shell { display: grid; grid-template-columns: 15rem 1fr; min-height: calc(100vh - 3.3rem); }
nav { background: #fff; border-right: 1px solid var(--line); padding: 1.25rem 0.75rem; }
nav ul { list-style: none; margin: 0 0 1rem; padding: 0; }
nav li a { display: block; padding: 0.5rem 0.75rem; border-radius: 0.4rem; color: var(--ink); text-decoration: none; }
nav li a:hover { background: var(--soft); }
nav li a[aria-current] { background: #e8f0fc; color: var(--brand-dark); font-weight: 600; }
nav .practices { border-bottom: 1px solid var(--line); padding-bottom: 0.75rem; }
main { padding: 1.75rem 2rem; max-width: 72rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 1rem; margin-bottom: 1rem; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 0.6rem; padding: 1.1rem 1.25rem; margin-bottom: 1rem; }
.cards .card { margin-bottom: 0; }
.cards .wide { grid-column: span 2; }
.grade-card { text-align: center; }
.grade { font-size: 4rem; font-weight: 800; margin: 0; line-height: 1.1; }
.grade-A { color: var(--ok); } .grade-B { color: #2f6f3e; } .grade-C { color: var(--warn); }
.grade-D { color: #b54708; } .grade-F { color: var(--bad); }
.score { margin: 0.25rem 0 0; color: var(--muted); }
.score strong { color: var(--ink); font-size: 1.3rem; }
.chart { margin: 0; }
.trend { width: 100%; height: auto; display: block; }
table { border-collapse: collapse; width: 100%; }
.list th, .list td { text-align: left; padding: 0.55rem 0.5rem; border-bottom: 1px solid var(--soft); vertical-align: middle; }
.list thead th { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.03em; color: var(--muted); }
.bars { table-layout: fixed; }
.bars th { text-align: left; font-weight: 500; padding: 0.35rem 0.5rem 0.35rem 0; width: 55%; }
.bars thead th { font-size: 0.8rem; text-transform: uppercase; color: var(--muted); }
.bars td.num, .bars th.num-head { width: 3.5rem; font-weight: 650; padding-right: 0.75rem; }
.bar-cell { width: auto; }
.bar { width: 100%; height: 0.6rem; display: block; }
.pill { display: inline-block; white-space: nowrap; padding: 0.05rem 0.55rem; border-radius: 1rem; font-size: 0.8rem; font-weight: 600; }
.pill-full { background: #dcfae6; color: #085d3a; } .pill-partial { background: #fef0c7; color: #7a2e0e; }
.pill-none { background: var(--soft); color: #344054; }
.pill-not-met { background: #fee4e2; color: #912018; } .pill-unknown { background: #f2f4f7; color: #475467; }
.requirements { padding-left: 1.5rem; } .requirements li { margin: 0.3rem 0; } .requirements ul { margin: 0.3rem 0 0.6rem; }
.coverage { list-style: none; padding: 0; margin: 0; } .coverage li { padding: 0.25rem 0; }
.sev { display: inline-block; min-width: 4.6rem; text-align: center; padding: 0.05rem 0.45rem; border-radius: 0.3rem;
  font-size: 0.75rem; font-weight: 700; text-transform: uppercase; letter-spacing: 0.03em; }
.sev-critical { background: #7a271a; color: #fff; } .sev-high { background: #fee4e2; color: #912018; }
.sev-medium { background: #fef0c7; color: #7a2e0e; } .sev-low { background: #e0f2fe; color: #0b4a6f; }
.sev-info { background: var(--soft); color: #344054; }
.severity-counts { list-style: none; padding: 0; margin: 0.4rem 0 0; display: flex; flex-wrap: wrap; gap: 0.25rem; justify-content: center; }
.finding { border: 1px solid var(--line); border-radius: 0.5rem; margin: 0 0 0.6rem; background: #fff; }
.finding summary { cursor: pointer; padding: 0.7rem 0.9rem; display: flex; gap: 0.75rem; align-items: center; }
.finding-title { font-weight: 600; flex: 1; }
.finding-body { padding: 0 1rem 0.9rem; border-top: 1px solid var(--soft); }
.evidence { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0; }
.evidence dt { color: var(--muted); } .evidence dd { margin: 0; overflow-wrap: anywhere; }
.controls { margin: 0; padding-left: 1.2rem; }
.filters { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; background: #fff; border: 1px solid var(--line);
  border-radius: 0.6rem; padding: 0.9rem 1rem; margin-bottom: 1rem; }
.filters label, .inline-form label { display: flex; flex-direction: column; font-size: 0.85rem; color: var(--muted); gap: 0.2rem; }
.inline-form { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; margin: 0.5rem 0 1rem; }
input, select { font: inherit; padding: 0.45rem 0.6rem; border: 1px solid #98a2b3; border-radius: 0.4rem; background: #fff; color: var(--ink); }
button, .button { font: inherit; font-weight: 600; padding: 0.5rem 1rem; border-radius: 0.4rem; border: 1px solid var(--brand);
  background: var(--brand); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button:hover, .button:hover { background: var(--brand-dark); }
.danger { background: #fff; color: var(--bad); border-color: #fda29b; } .danger:hover { background: #fef3f2; }
.small-button { padding: 0.25rem 0.6rem; font-size: 0.85rem; }
.link-button { background: none; border: none; color: var(--brand-dark); padding: 0; text-decoration: underline; }
.link-button:hover { background: none; }
.inline { display: inline; margin: 0; }
.command { display: flex; gap: 0.5rem; align-items: flex-start; }
.command pre { flex: 1; margin: 0.25rem 0; padding: 0.6rem 0.75rem; background: #101828; color: #f2f4f7; border-radius: 0.4rem;
  overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
.notice { padding: 0.7rem 0.9rem; border-radius: 0.45rem; margin: 0 0 1rem; border: 1px solid; overflow-wrap: anywhere; }
.notice-error { background: #fef3f2; border-color: #fda29b; color: #7a271a; }
.notice-ok { background: #ecfdf3; border-color: #75e0a7; color: #054f31; }
.notice-info { background: #eff8ff; border-color: #84caff; color: #0b4a6f; }
body.public { display: grid; place-items: start center; padding: 4rem 1rem; }
.auth-card { background: #fff; border: 1px solid var(--line); border-radius: 0.75rem; padding: 2rem 2.25rem; width: min(28rem, 100%);
  max-width: none; box-shadow: 0 1px 3px rgba(16,24,40,0.06); }
.auth-card .brand { margin: 0 0 1.25rem; }
.record-form { display: flex; flex-direction: column; gap: 0.6rem; }
.record-form label { display: flex; flex-direction: column; font-size: 0.85rem; color: var(--muted); gap: 0.2rem; }
.record-form label span { color: var(--ink); font-size: 0.95rem; }
.record-form .row { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; }
.record-form fieldset { border: 1px solid var(--line); border-radius: 0.5rem; padding: 0.6rem 0.9rem 0.9rem; margin: 0; }
.record-form legend { font-weight: 600; padding: 0 0.3rem; }
.record-form button { align-self: flex-start; }
textarea { font: inherit; padding: 0.45rem 0.6rem; border: 1px solid #98a2b3; border-radius: 0.4rem; background: #fff; color: var(--ink); }
.page-footer { padding: 1rem 1.5rem; font-size: 0.85rem; color: var(--muted); }
.stack { display: flex; flex-direction: column; gap: 0.35rem; }
.stack label { font-weight: 600; font-size: 0.9rem; margin-top: 0.5rem; }
.stack button { margin-top: 1rem; }
.qr { display: block; margin: 0.5rem auto; image-rendering: pixelated; border: 1px solid var(--line); border-radius: 0.4rem; }
.secret { overflow-wrap: anywhere; }
.codes { columns: 2; list-style: none; padding: 0; font-size: 1.05rem; }
.actions { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem; margin: 0 0 0.75rem; }
.actions p { margin: 0; }
.question { border: none; border-top: 1px solid var(--line); margin: 0; padding: 0.75rem 0; }
.question legend { font-weight: 600; padding: 0; }
.question textarea { display: block; width: 100%; font: inherit; margin-top: 0.2rem; }
textarea:focus-visible { outline: 3px solid #84adff; outline-offset: 2px; }
.choices { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0.4rem 0; }
.prefill { background: #eff8ff; border-left: 3px solid var(--brand); padding: 0.3rem 0.6rem; margin: 0.3rem 0; }
.flag { color: var(--warn); margin: 0.3rem 0; }
.field-error { color: var(--bad); font-weight: 600; margin: 0.3rem 0; }
@media (max-width: 48rem) { .shell { grid-template-columns: 1fr; } nav { border-right: none; border-bottom: 1px solid var(--line); }
  .cards .wide { grid-column: auto; } main { padding: 1.25rem; } }
`;
