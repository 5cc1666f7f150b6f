import { parentPort } from "node:worker_threads";
import type { ReportModel } from "./model.js";
import { renderReportPdf } from "./render-pdf.js";

/*
 * The PDF renderer's thread (started by pdf-thread.ts): laying out a report takes a few hundred milliseconds of
 * synchronous work, which must not stall the server's event loop. One request at a time, answered by id.
 */

interface RenderRequest {
  readonly id: number;
  readonly model: ReportModel;
}

parentPort!.on("message", async ({ id, model }: RenderRequest) => {
  try {
    const pdf = await renderReportPdf(model);
    parentPort!.postMessage({ id, ok: true, pdf });
  } catch (err) {
    parentPort!.postMessage({ id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
