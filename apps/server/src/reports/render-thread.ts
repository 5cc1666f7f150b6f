import type { Worker } from "node:worker_threads";
import { ServiceError } from "../errors.js";
import { startWorkerThread } from "../util/worker-thread.js";
import type { ReportSources } from "./build-model.js";
import type { ReportFormat } from "./formats.js";
import type { RenderedHtml } from "./render-html.js";

/** What the thread answers: the PDF's bytes, or the HTML page with its CSP. */
export type RenderedPage = { readonly pdf: Buffer } | { readonly html: RenderedHtml };

type Answer = { readonly id: number } & (
  | { readonly ok: true; readonly pdf?: Uint8Array; readonly html?: RenderedHtml }
  | { readonly ok: false; readonly message: string }
);

interface Queued {
  readonly sources: ReportSources;
  readonly format: ReportFormat;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (page: RenderedPage) => void;
  readonly reject: (err: Error) => void;
  readonly onAbort: () => void;
}

/** Memory a layout may use (a report is well under 10 MB; the bound keeps a runaway one from the server's heap). */
const LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };

/** Reports waiting for the thread (besides the one it lays out) beyond which a request is refused 503. */
export const RENDER_QUEUE_MAX = 8;
/** The Retry-After of that refusal: about what a few large layouts take. */
export const RENDER_QUEUE_RETRY_AFTER_SECONDS = 5;

/** Findings serialized per event-loop turn when sources are handed to the thread (~5 ms of a 2,500-finding job's). */
const FINDINGS_PER_TURN = 250;

/**
 * The error a render gets when its client left before the thread took it (nothing was laid out). Nobody reads the
 * answer; the call's audit event records it as unavailable.
 */
export class RenderCancelled extends ServiceError {
  constructor(message: string) {
    super("unavailable", message);
  }
}

/**
 * Builds reports from their sources and lays them out — HTML and PDF — on one worker thread, started at the first
 * report and kept (unreferenced: it never holds the process open), so a large report never holds the event loop (the
 * HTML of 2,500 findings held it ~0.35 s, a PDF far longer) and at most one layout runs at a time on the server's
 * cores.
 *
 * The queue is kept here, not in the thread's message port, so that it can be managed: a request whose client left
 * (its `signal` aborted) is dropped before the thread spends anything on it — a small PDF once waited 23 s behind 20
 * abandoned large ones — and at most {@link RENDER_QUEUE_MAX} wait; the next is refused `503 unavailable` with a
 * Retry-After. The sources cross to the thread as JSON text made a slice of findings per turn (a structured clone of
 * a large practice's is one long synchronous copy). A thread that dies fails what it had and is started again next time.
 */
export class ReportRenderThread {
  private worker: Worker | null = null;
  private readonly queue: Queued[] = [];
  private inFlight: { readonly id: number; readonly job: Queued; posted: boolean } | null = null;
  private nextId = 1;
  /** Layouts the thread was given, for tests and diagnostics. */
  started = 0;

  constructor(private readonly maxQueued = RENDER_QUEUE_MAX) {}

  render(sources: ReportSources, format: ReportFormat, signal?: AbortSignal): Promise<RenderedPage> {
    if (signal?.aborted) return Promise.reject(new RenderCancelled("the client left before the report was laid out"));
    if (this.queue.length >= this.maxQueued)
      return Promise.reject(
        new ServiceError(
          "unavailable",
          `${this.queue.length} reports are waiting to be laid out; retry in a few seconds`,
          { retry_after_seconds: RENDER_QUEUE_RETRY_AFTER_SECONDS },
        ),
      );
    return new Promise<RenderedPage>((resolve, reject) => {
      const job: Queued = {
        sources,
        format,
        signal,
        resolve,
        reject,
        onAbort: () => {
          const at = this.queue.indexOf(job);
          if (at < 0) return; // already handed to the thread: it finishes, and the answer goes nowhere
          this.queue.splice(at, 1);
          reject(new RenderCancelled("the client left before the report was laid out"));
        },
      };
      signal?.addEventListener("abort", job.onAbort, { once: true });
      this.queue.push(job);
      this.next();
    });
  }

  /** Whether a request has been handed to the thread and its answer has not come back yet. */
  get layingOut(): boolean {
    return this.inFlight?.posted === true;
  }

  /** Requests waiting (not counting the one being laid out). */
  get waiting(): number {
    return this.queue.length;
  }

  /** Stops the thread (tests, shutdown); what it had in hand and what waited fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    const stopped = new Error("the report thread was stopped");
    for (const job of this.queue.splice(0)) job.reject(stopped);
    if (this.inFlight) this.settle(this.inFlight.id, stopped);
    if (worker) await worker.terminate();
  }

  private next(): void {
    if (this.inFlight || this.queue.length === 0) return;
    const job = this.queue.shift()!;
    job.signal?.removeEventListener("abort", job.onAbort);
    const id = this.nextId++;
    this.inFlight = { id, job, posted: false };
    this.started++;
    void sourcesAsJson(job.sources).then(
      (json) => {
        if (this.inFlight?.id !== id) return;
        // The client may have left while the model was serialized: nothing has been laid out yet.
        if (job.signal?.aborted) return this.settle(id, new RenderCancelled("the client left before the layout"));
        this.ensureWorker().postMessage({ id, format: job.format, sources: json });
        this.inFlight.posted = true;
      },
      (err: unknown) => this.settle(id, err instanceof Error ? err : new Error(String(err))),
    );
  }

  private settle(id: number, outcome: RenderedPage | Error): void {
    if (this.inFlight?.id !== id) return;
    const { job } = this.inFlight;
    this.inFlight = null;
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
    this.next();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorkerThread(new URL("./render-worker", import.meta.url), null, LIMITS);
    worker.unref();
    worker.on("message", (answer: Answer) => {
      if (!answer.ok) return this.settle(answer.id, new Error(`report layout failed: ${answer.message}`));
      const pdf = answer.pdf;
      this.settle(
        answer.id,
        pdf ? { pdf: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength) } : { html: answer.html! },
      );
    });
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (this.inFlight) this.settle(this.inFlight.id, err);
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the report thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

/** The sources as JSON text, the job's findings serialized a slice per event-loop turn. */
async function sourcesAsJson(sources: ReportSources): Promise<string> {
  const { result, ...job } = sources.job;
  const { findings, ...resultRest } = result;
  const parts: string[] = [];
  for (let i = 0; i < findings.length; i += FINDINGS_PER_TURN) {
    parts.push(JSON.stringify(findings.slice(i, i + FINDINGS_PER_TURN)).slice(1, -1));
    await new Promise((resolve) => setImmediate(resolve));
  }
  const withFindings = (json: string, list: string) => `${json.slice(0, -1)}${json.length > 2 ? "," : ""}${list}}`;
  const resultJson = withFindings(
    JSON.stringify(resultRest),
    `"findings":[${parts.filter((p) => p !== "").join(",")}]`,
  );
  const jobJson = withFindings(JSON.stringify(job), `"result":${resultJson}`);
  return withFindings(JSON.stringify({ ...sources, job: undefined }), `"job":${jobJson}`);
}

/** The process's report thread (one: layouts are rare and heavy; see ReportRenderThread). */
export const reportRenderThread = new ReportRenderThread();
