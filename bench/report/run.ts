// bench/report: what one compliance report costs, on the captured report sources of a real full scan (the Riverside
// sample practice: 24 findings, a 10-page PDF), in this process, from the server's TypeScript sources under tsx.
//  1. Building the report model (pure, zod-validated), rendering the HTML, laying out the PDF — each the median of
//     repeated runs. Baseline in the same run: JSON.stringify of the job (what GET /v1/a2a/jobs/{id} serializes).
//  2. The serving thread's event loop while PDFs are made: the longest timer delay during 5 PDFs laid out in this
//     thread, against the same 5 built and laid out on the report thread (reports/render-thread.ts), which the server
//     uses.
import { buildReportModel } from "../../apps/server/src/reports/build-model.js";
import { renderReportHtml } from "../../apps/server/src/reports/render-html.js";
import { renderReportPdf } from "../../apps/server/src/reports/render-pdf.js";
import { ReportRenderThread } from "../../apps/server/src/reports/render-thread.js";
import { RIVERSIDE } from "../../apps/server/src/test-support/report-sources.js";
import { median } from "../lib/stats.js";

async function timeMs(runs: number, f: () => unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

/** The longest delay of a 5 ms timer while `work` runs: how long the event loop was held. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 5);
    last = now;
  }, 5);
  await work();
  clearInterval(timer);
  // Work that never yields to the timers leaves no tick inside it: the gap since the last tick is the stall.
  return Math.max(worst, performance.now() - last - 5);
}

const model = buildReportModel(RIVERSIDE);
for (let i = 0; i < 3; i++) {
  await renderReportHtml(model);
  await renderReportPdf(model);
}
const json = await timeMs(500, () => JSON.stringify(RIVERSIDE.job));
const build = await timeMs(200, () => buildReportModel(RIVERSIDE));
const html = await timeMs(200, () => renderReportHtml(model));
const pdfBytes = (await renderReportPdf(model)).length;
const pdf = await timeMs(15, () => renderReportPdf(model));
console.log(`baseline  JSON.stringify(job)     ${json.toFixed(3)} ms`);
console.log(`model     buildReportModel        ${build.toFixed(2)} ms  (${(build / json).toFixed(0)}× baseline)`);
console.log(`html      renderReportHtml        ${html.toFixed(2)} ms  (${(html / json).toFixed(0)}× baseline)`);
console.log(
  `pdf       renderReportPdf         ${pdf.toFixed(1)} ms  (${(pdf / json).toFixed(0)}× baseline, ${pdfBytes} bytes)`,
);

const thread = new ReportRenderThread();
await thread.render(RIVERSIDE, "pdf"); // start-up is not what is measured
const inThread = await longestStall(async () => {
  for (let i = 0; i < 5; i++) await renderReportPdf(model);
});
const offThread = await longestStall(() =>
  Promise.all(Array.from({ length: 5 }, () => thread.render(RIVERSIDE, "pdf"))),
);
await thread.close();
console.log(`event loop, 5 PDFs laid out on this thread: longest stall ${inThread.toFixed(0)} ms`);
console.log(`event loop, 5 PDFs on the report thread:    longest stall ${offThread.toFixed(0)} ms`);
