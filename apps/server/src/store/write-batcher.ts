import type { Kysely, Transaction } from "kysely";
import { isStoreUnavailable } from "./availability.js";
import type { Database } from "./schema.js";

/** An op of a group transaction; `counts` are the values its counter increments took, in the order given. */
export type WriteOp<T> = (trx: Transaction<Database>, counts: readonly number[]) => Promise<T>;

/**
 * One increment of a shared counter (a rate-limit window): the increments of one group transaction for the same key
 * are added together and written with one statement, and each op gets the value its own increment would have
 * produced, in submission order — as if each had run `count = count + 1` in turn.
 */
export interface CounterIncrement {
  readonly key: string;
  /** Adds `n` to the counter inside `trx` and returns its new value. */
  add(trx: Transaction<Database>, n: number): Promise<number>;
}

interface Pending {
  readonly op: WriteOp<unknown>;
  readonly counters: readonly CounterIncrement[];
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit: write operations submitted during one event-loop turn run in one transaction, and each caller's
 * promise settles only after that transaction committed — durable before the response, at a fraction of the cost
 * of a transaction per request (DESIGN §4). Ops must only touch the database (they may be re-run: if a batch fails,
 * each op is retried alone so one bad op cannot fail its neighbours). Batches run one after another.
 */
export class WriteBatcher {
  private queue: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private scheduled = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxBatch = 256,
  ) {}

  /**
   * Runs `op` inside the next group transaction and resolves with its result after the commit. `counters` are
   * incremented by one each before the op runs (coalesced with the batch's other increments of the same key); the
   * op receives their new values.
   */
  run<T>(op: WriteOp<T>, counters: readonly CounterIncrement[] = []): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ op, counters, resolve: resolve as (v: unknown) => void, reject });
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
    try {
      const results = await this.db.transaction().execute(async (trx) => {
        const next = await addCounters(trx, batch);
        const out: unknown[] = [];
        for (const p of batch) {
          const counts = p.counters.map((c) => {
            const value = next.get(c.key)!;
            next.set(c.key, value + 1);
            return value;
          });
          out.push(await p.op(trx, counts));
        }
        return out;
      });
      for (const [i, p] of batch.entries()) p.resolve(results[i]);
    } catch (err) {
      // A store that is down or timing out fails every op alike: retrying them one by one would make each wait
      // out the same timeout again, one after another, while the callers' requests hang.
      if (batch.length === 1 || isStoreUnavailable(err)) {
        for (const p of batch) p.reject(err);
        return;
      }
      // The whole transaction rolled back; retry each op alone so only the op at fault fails.
      for (const p of batch) await this.runAlone(p);
    }
  }

  private async runAlone(p: Pending): Promise<void> {
    try {
      p.resolve(
        await this.db.transaction().execute(async (trx) => {
          const counts: number[] = [];
          for (const c of p.counters) counts.push(await c.add(trx, 1));
          return p.op(trx, counts);
        }),
      );
    } catch (err) {
      p.reject(err);
    }
  }
}

/**
 * Writes every counter key of a batch once, adding how many of its ops increment it, and returns for each key the
 * value the first of those increments takes (the ops then take the following values in submission order).
 */
async function addCounters(trx: Transaction<Database>, batch: readonly Pending[]): Promise<Map<string, number>> {
  const totals = new Map<string, { increment: CounterIncrement; n: number }>();
  for (const p of batch) {
    for (const c of p.counters) {
      const t = totals.get(c.key);
      if (t) t.n++;
      else totals.set(c.key, { increment: c, n: 1 });
    }
  }
  const first = new Map<string, number>();
  for (const [key, { increment, n }] of totals) first.set(key, (await increment.add(trx, n)) - n + 1);
  return first;
}
