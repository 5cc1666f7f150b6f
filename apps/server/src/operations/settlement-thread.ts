import type { Worker } from "node:worker_threads";
import { startWorkerThread } from "../util/worker-thread.js";
import type { SettlementWrite, SettlementWritten } from "./settle-writes.js";
import { decodeReply, encodeRequest, type WorkerReply, type WorkerRequest } from "./settlement-wire.js";

/** The error a call's settlement gets when the writer thread died with it in flight (nothing of it is assumed written). */
export class WriterThreadDown extends Error {
  readonly code = "HCS_WRITER_THREAD_DOWN";
}

interface Pending {
  readonly write: SettlementWrite;
  /** When the call asked (Date.now()): its wait for the write lock counts from then (settlement-worker.ts). */
  readonly askedAt: number;
  readonly resolve: (written: SettlementWritten) => void;
  readonly reject: (err: Error) => void;
}

/**
 * The embedded store's writer thread for settlements, by default only where the process may use three CPUs or more
 * (docs/performance.md#the-settlement-writer-thread-only-from-three-cpus): the settlements submitted in one
 * event-loop turn go to a worker thread in one message; it writes them as one group transaction over its own
 * connection to the database file (writeSettlements, the same code the serving thread runs without it) and answers
 * each call's counts and charge after the commit. The serving thread keeps reading and serving meanwhile: the
 * statements, the commit and the WAL checkpoints its commits trigger run on the other core.
 *
 * Up to two groups are in flight: the thread writes them one after the other, in the order sent, so the next group
 * is already there when a commit ends instead of one round trip through this thread's event loop later (which, with
 * one group in flight, left the writer idle half the time in bench/grade-lookup's batch row).
 * What arrives meanwhile forms the next group (as the store's own group commit does). A group whose transaction
 * fails is retried call by call in the worker, so one bad call cannot fail its neighbours. If the thread dies, the
 * calls in flight fail (503: the store did not answer) and a new thread serves the next ones.
 */
export class SettlementThread {
  private queue: Pending[] = [];
  private readonly inFlight = new Map<number, Pending[]>();
  private scheduled = false;
  private worker: Worker | null = null;
  private nextId = 0;
  private closed = false;
  private idle: (() => void)[] = [];

  constructor(
    private readonly file: string,
    private readonly onThreadError: (err: Error) => void = () => {},
    private readonly maxBatch = 256,
    private readonly maxInFlight = 2,
  ) {}

  /** Writes a call's settlement in the next group and answers what the store said, once committed. */
  write(write: SettlementWrite): Promise<SettlementWritten> {
    if (this.closed) return Promise.reject(new WriterThreadDown("the settlement writer is closed"));
    return new Promise((resolve, reject) => {
      this.queue.push({ write, askedAt: Date.now(), resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once every submitted settlement has been answered. */
  drain(): Promise<void> {
    if (this.inFlight.size === 0 && this.queue.length === 0 && !this.scheduled) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Waits for the settlements submitted so far, then stops the thread. */
  async close(): Promise<void> {
    await this.drain();
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight.size >= this.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.send();
    });
  }

  private send(): void {
    const batch = this.queue.splice(0, this.maxBatch);
    if (batch.length === 0) {
      if (this.inFlight.size === 0) for (const resolve of this.idle.splice(0)) resolve();
      return;
    }
    const id = ++this.nextId;
    this.inFlight.set(id, batch);
    const worker = this.thread();
    worker.ref();
    const request: WorkerRequest = { id, askedAt: batch[0]!.askedAt, writes: batch.map((p) => p.write) };
    // As compact JSON text (settlement-wire.ts): the structured clone of postMessage cost the serving thread ~12 % of
    // its time per lookup in a CPU profile (bench/grade-lookup); one JSON.stringify and a string copy cost a fraction.
    worker.postMessage(encodeRequest(request));
    if (this.queue.length > 0) this.schedule();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    // A small heap: a group holds at most maxBatch settlements of a few hundred bytes each.
    const worker = startWorkerThread(
      new URL("./settlement-worker", import.meta.url),
      { file: this.file },
      { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 },
    );
    worker.on("message", (reply: string) => this.answered(decodeReply(reply)));
    const died = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.onThreadError(err);
      this.fail(new WriterThreadDown(`the settlement writer thread stopped: ${err.message}`));
    };
    worker.on("error", died);
    worker.on("exit", (code) => died(new Error(`exit code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private answered(reply: WorkerReply): void {
    const batch = this.inFlight.get(reply.id);
    if (!batch) return;
    this.inFlight.delete(reply.id);
    if (this.inFlight.size === 0) this.worker?.unref();
    for (const [i, p] of batch.entries()) {
      const r = reply.results[i]!;
      if ("error" in r) p.reject(Object.assign(new Error(r.error.message), { code: r.error.code }));
      else p.resolve(r.written);
    }
    this.next();
  }

  private fail(err: Error): void {
    const batches = [...this.inFlight.values()];
    this.inFlight.clear();
    for (const batch of batches) for (const p of batch) p.reject(err);
    this.next();
  }

  private next(): void {
    if (this.queue.length > 0) this.schedule();
    else if (this.inFlight.size === 0) for (const resolve of this.idle.splice(0)) resolve();
  }
}
