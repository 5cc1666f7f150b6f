import { parentPort } from "node:worker_threads";
import { buildReportModel, type ReportSources } from "./build-model.js";
import type { ReportFormat } from "./formats.js";
import { renderReportHtml } from "./render-html.js";
import { renderReportPdf } from "./render-pdf.js";

/*
 * The report thread (started by render-thread.ts): building a large report's model and laying it out takes from a
 * few hundred milliseconds (the HTML of 2,500 findings) to seconds (its PDF) of synchronous work, which must not stall
 * the server's event loop. One request at a time, answered by id; the sources come as JSON text.
 */

interface RenderRequest {
  readonly id: number;
  readonly format: ReportFormat;
  readonly sources: string;
}

parentPort!.on("message", async ({ id, format, sources }: RenderRequest) => {
  try {
    const parsed = buildReportModel(JSON.parse(sources) as ReportSources);
    if (format === "pdf") parentPort!.postMessage({ id, ok: true, pdf: await renderReportPdf(parsed) });
    else parentPort!.postMessage({ id, ok: true, html: await renderReportHtml(parsed) });
  } catch (err) {
    parentPort!.postMessage({ id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
