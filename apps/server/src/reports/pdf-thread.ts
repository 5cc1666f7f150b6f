import type { Worker } from "node:worker_threads";
import { startWorkerThread } from "../util/worker-thread.js";
import type { ReportModel } from "./model.js";

type Answer = { readonly id: number } & (
  | { readonly ok: true; readonly pdf: Uint8Array }
  | { readonly ok: false; readonly message: string }
);

/** Memory a PDF layout may use (a report is well under 10 MB; the bound keeps a runaway one from the server's heap). */
const LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };

/**
 * Renders report PDFs on one worker thread, started at the first report and kept (unreferenced: it never holds the
 * process open). Requests queue on it, so PDFs never compete with requests for the event loop and at most one
 * layout runs at a time on the server's cores. A thread that dies fails what it had and is started again next time.
 */
export class PdfThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { resolve(pdf: Buffer): void; reject(err: Error): void }>();
  private nextId = 1;

  render(model: ReportModel): Promise<Buffer> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, model });
    });
  }

  /** Stops the thread (tests, shutdown); what it had in hand fails. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorkerThread(new URL("./pdf-worker", import.meta.url), null, LIMITS);
    worker.unref();
    worker.on("message", (answer: Answer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (answer.ok) waiting.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.byteLength));
      else waiting.reject(new Error(`PDF rendering failed: ${answer.message}`));
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const [id, waiting] of this.pending) {
        this.pending.delete(id);
        waiting.reject(err);
      }
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the PDF thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

/** The process's PDF thread (one: PDF layout is rare and heavy; see PdfThread). */
export const reportPdfThread = new PdfThread();
