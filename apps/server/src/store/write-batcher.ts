import type { Kysely, Transaction } from "kysely";
import { isStoreUnavailable } from "./availability.js";
import type { Database } from "./schema.js";

export type WriteOp<T> = (trx: Transaction<Database>) => Promise<T>;

interface Pending {
  readonly op: WriteOp<unknown>;
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

  /** Runs `op` inside the next group transaction and resolves with its result after the commit. */
  run<T>(op: WriteOp<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ op, resolve: resolve as (v: unknown) => void, reject });
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
        const out: unknown[] = [];
        for (const p of batch) out.push(await p.op(trx));
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
      p.resolve(await this.db.transaction().execute(p.op));
    } catch (err) {
      p.reject(err);
    }
  }
}
