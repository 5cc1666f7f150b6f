import type { Kysely, Transaction } from "kysely";
import { isStoreUnavailable } from "./availability.js";
import type { Database } from "./schema.js";

/** An op of a group transaction. */
export type WriteOp<T> = (trx: Transaction<Database>) => Promise<T>;

/**
 * A kind of write whose items, queued in one event-loop turn, are written together by one call — one statement
 * for many rows, one update for many increments of the same counter — instead of one op each (see
 * {@link WriteBatcher.runInBulk}). The kind object's identity is what groups items: use one per kind.
 */
export interface BulkWrite<I, R> {
  /** Writes the items (in submission order) inside the group transaction; returns one result per item, in order. */
  run(trx: Transaction<Database>, items: readonly I[]): Promise<R[]>;
  /**
   * Writes the items as one statement that is its own transaction, without BEGIN and COMMIT (PostgreSQL: one round
   * trip for the group instead of one per statement plus two). Used instead of a transaction when the batch holds
   * nothing but this kind's items; absent, the items are always written by {@link run} inside a transaction.
   */
  runAlone?(db: Kysely<Database>, items: readonly I[]): Promise<R[]>;
  /** Told of each item's result once its transaction committed, before its caller is (in-memory mirrors). */
  committed?(item: I, result: R): void;
}

/**
 * A write that ran and answered in a shape the caller did not expect (the wrong number of results): it may well have
 * committed, so the batcher fails its callers instead of writing their items again — a second attempt of a charge whose
 * first committed would charge twice.
 */
export class UnexpectedWriteAnswer extends Error {
  override readonly name = "UnexpectedWriteAnswer";
}

type Pending = {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
} & (
  | { readonly op: WriteOp<unknown>; readonly kind?: undefined; readonly item?: undefined }
  | { readonly op?: undefined; readonly kind: BulkWrite<unknown, unknown>; readonly item: unknown }
);

/**
 * Group commit: write operations submitted during one event-loop turn run in one transaction, and each caller's
 * promise settles only after that transaction committed — durable before the response, at a fraction of the cost
 * of a transaction per request (docs/architecture.md#4-settle). Ops must only touch the database (they may be re-run:
 * if a batch fails, each op is retried alone so one bad op cannot fail its neighbours). Batches run one after another.
 */
export class WriteBatcher {
  private queue: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private scheduled = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxBatch = 256,
  ) {}

  /** Runs `op` inside the next group transaction and resolves with its result after the commit. */
  run<T>(op: WriteOp<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ op, resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
  }

  /**
   * Writes `item` with the other items of its kind queued for the same group transaction, in one call of
   * `kind.run` (at the place of the first of them), and resolves with the item's result after the commit. If the
   * transaction fails, the item is retried alone, like any op.
   */
  runInBulk<I, R>(kind: BulkWrite<I, R>, item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({
        kind: kind as BulkWrite<unknown, unknown>,
        item,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.schedule();
    });
  }

  /** Resolves when every queued op has settled. */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.flushing || this.scheduled) {
      await (this.flushing ?? new Promise((r) => setImmediate(r)));
    }
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flushing = this.flush().finally(() => {
        this.flushing = null;
        if (this.queue.length > 0) this.schedule();
      });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, this.maxBatch);
    if (batch.length === 0) return;
    let results: unknown[];
    try {
      results = await this.write(batch);
    } catch (err) {
      // A store that is down or timing out fails every op alike: retrying them one by one would make each wait
      // out the same timeout again, one after another, while the callers' requests hang. A write that answered
      // unexpectedly may have committed: written again, its charges would be taken twice.
      if (batch.length === 1 || isStoreUnavailable(err) || err instanceof UnexpectedWriteAnswer) {
        for (const p of batch) p.reject(err);
        // The write lock did not come within the wait (SQLite): what was queued meanwhile has been waiting for the
        // same lock, and would wait the whole timeout again after this batch. It fails with it, so no write waits
        // longer than the timeout from when it was asked (docs/operations.md).
        if ((err as { code?: unknown }).code === "SQLITE_BUSY") for (const p of this.queue.splice(0)) p.reject(err);
        return;
      }
      // The whole transaction rolled back; retry each op alone so only the op at fault fails.
      for (const p of batch) await this.runAlone(p);
      return;
    }
    // Committed: every caller is told so, and nothing of the batch is written again.
    for (const [i, p] of batch.entries()) resolveCommitted(p, results[i]);
  }

  /** Writes a batch: in one statement when its items are all of one kind that can (see runAlone), else in a transaction. */
  private write(batch: readonly Pending[]): Promise<unknown[]> {
    const kind = batch[0]!.kind;
    if (kind?.runAlone && batch.every((p) => p.kind === kind))
      return runKind(batch, (items) => kind.runAlone!(this.db, items));
    return this.db.transaction().execute((trx) => runBatch(trx, batch));
  }

  private async runAlone(p: Pending): Promise<void> {
    try {
      resolveCommitted(p, (await this.write([p]))[0]);
    } catch (err) {
      p.reject(err);
    }
  }
}

/**
 * Tells a caller its write committed, after the kind's in-memory mirror took the result. The mirror is a cache of what
 * is committed: one that throws does not undo the write, and must not have it written again (it once sat inside the
 * batch's try, so a throwing mirror had the committed batch retried op by op).
 */
function resolveCommitted(p: Pending, result: unknown): void {
  try {
    p.kind?.committed?.(p.item, result);
  } catch {
    // The write stands; the mirror catches up from the next committed result.
  }
  p.resolve(result);
}

/** Writes the items of pending bulk writes of one kind with `write`, checking that it answered one result per item. */
async function runKind(
  pending: readonly Pending[],
  write: (items: readonly unknown[]) => Promise<unknown[]>,
): Promise<unknown[]> {
  const results = await write(pending.map((p) => p.item));
  if (results.length !== pending.length)
    throw new UnexpectedWriteAnswer("a bulk write returned the wrong number of results");
  return results;
}

/** Runs a batch's ops in order inside `trx`; the items of one bulk kind run together where the first of them is. */
async function runBatch(trx: Transaction<Database>, batch: readonly Pending[]): Promise<unknown[]> {
  const out: unknown[] = new Array(batch.length);
  const ranKinds = new Set<BulkWrite<unknown, unknown>>();
  for (const [i, p] of batch.entries()) {
    if (p.op) {
      out[i] = await p.op(trx);
      continue;
    }
    if (ranKinds.has(p.kind)) continue;
    ranKinds.add(p.kind);
    const positions: number[] = [];
    for (let j = i; j < batch.length; j++) if (batch[j]!.kind === p.kind) positions.push(j);
    const results = await runKind(
      positions.map((j) => batch[j]!),
      (items) => p.kind.run(trx, items),
    );
    for (const [k, j] of positions.entries()) out[j] = results[k];
  }
  return out;
}
