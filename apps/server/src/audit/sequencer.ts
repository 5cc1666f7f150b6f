import { HASH_BYTES } from "@hcs/protocol";
import { sql, type Transaction } from "kysely";
import type { Logger } from "pino";
import { auditRecordJson, auditRecordOf } from "../services/audit.js";
import { insertRows } from "../store/hot-sql.js";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { startWorkerThread } from "../util/worker-thread.js";
import { consecutiveRuns, type LogState, type PlannedRun, planRun, type WaitingRecord } from "./sequencer-run.js";
import { SQLITE_LEAF_INPUT } from "./sqlite-log-reader.js";

const RUN_COLUMNS = ["first_index", "first_id", "last_id", "leaf_hashes"] as const;

/**
 * Most events one sequencer run indexes (one transaction). Runs stay short (a few milliseconds of hashing, well under
 * one of writing) and the loop yields to requests between them.
 */
export const SEQUENCE_BATCH = 250;

/**
 * Most events one run planned on the planner thread indexes: the serving thread only writes them (one short
 * transaction, a few milliseconds for 1,000), so runs are larger and their fixed cost is shared by more events.
 */
export const PLANNED_BATCH = 1000;

export interface Sequenced {
  /** Events given their leaf index by this run (0 when none waited, or another sequencer held the log). */
  readonly sequenced: number;
  /** The log's size after the run (null when another sequencer held the log, or sequenced first). */
  readonly size: number | null;
}

type StateRow = { size: number | string; frontier: string; sequenced_id: number | string };
const stateOf = (row: StateRow): LogState => ({
  size: Number(row.size),
  frontier: row.frontier,
  sequencedId: Number(row.sequenced_id),
});

/** Reads the log's state row in a transaction, claimed (null: another sequencer holds it; see `store.locks`). */
async function lockedState(store: Store, trx: Transaction<Database>): Promise<LogState | null> {
  const lock = store.locks.claimClause;
  const row = (await sql<StateRow>`select size, frontier, sequenced_id from audit_log where id = 1${lock}`.execute(trx))
    .rows[0];
  return row ? stateOf(row) : null;
}

/**
 * The committed events waiting for a leaf, in id order, with their records' leaf inputs. SQLite hands ids out in
 * commit order (one writer at a time): what waits is above the last id sequenced, and SQLite stores the canonical
 * record itself. PostgreSQL's writers commit out of id order: what waits has no mark (a partial index finds it).
 */
async function waitingRecords(
  store: Store,
  trx: Transaction<Database>,
  state: LogState,
  maxBatch: number,
): Promise<WaitingRecord[]> {
  // The embedded store: ids in commit order, so what waits is an id range; and the record text is stored (read as the
  // leaf input by SQL). Both hold on SQLite, neither on PostgreSQL (store.audit).
  if (store.audit.idsInCommitOrder && store.audit.recordText) {
    const rows = await sql<{ id: number; input: string }>`select e.id, ${sql.raw(SQLITE_LEAF_INPUT)} as input
      from audit_events e where e.id > ${state.sequencedId} order by e.id limit ${maxBatch}`.execute(trx);
    return rows.rows.map((r) => ({ id: Number(r.id), leafInput: r.input }));
  }
  const rows = await trx
    .selectFrom("audit_events")
    .selectAll()
    .where("leaf_index", "is", null)
    .orderBy("id")
    .limit(maxBatch)
    .execute();
  return rows.map((e) => ({ id: Number(e.id), leafInput: `\0${auditRecordJson(auditRecordOf(e, e.salt))}` }));
}

/**
 * Writes a planned run in the caller's transaction, which holds the log's state `current`: the journal of the runs of
 * consecutive ids, each with its leaves' hashes (what `audit verify` and proofs read), on PostgreSQL the marks of
 * the sequenced events, and the new state. A plan made from another state than `current` is dropped.
 */
async function writeRun(
  store: Store,
  trx: Transaction<Database>,
  current: LogState,
  run: PlannedRun,
): Promise<boolean> {
  if (current.size !== run.from.size || current.sequencedId !== run.from.sequencedId) return false;
  const size = run.from.size;
  const runs = consecutiveRuns(run.ids);
  const hashesOf = (at: number, count: number) =>
    Buffer.from(run.leaves.buffer, run.leaves.byteOffset + at * HASH_BYTES, count * HASH_BYTES);
  await insertRows(
    store.hot,
    trx,
    "audit_sequence_runs",
    RUN_COLUMNS,
    runs.map((r) => [size + r.at, r.first, r.last, hashesOf(r.at, r.last - r.first + 1)]),
  );
  // Where ids commit out of order, each sequenced event is marked with its leaf (what waits is what has no mark).
  if (!store.audit.idsInCommitOrder)
    for (const r of runs)
      await sql`update audit_events set leaf_index = id + ${size + r.at - r.first}
                where id >= ${r.first} and id <= ${r.last} and leaf_index is null`.execute(trx);
  await trx
    .updateTable("audit_log")
    .set({
      size: run.size,
      frontier: run.frontier,
      root_hash: run.rootHash,
      updated_at: new Date().toISOString(),
      sequenced_id: run.sequencedId,
    })
    .where("id", "=", 1)
    .execute();
  return true;
}

/**
 * Integrates waiting audit events into the log, as Trillian's sequencer does: in one transaction, lock the log's
 * state row (on PostgreSQL a sequencer that finds it locked skips this run: one sequencer at a time across
 * processes), take the committed events that have no leaf in id order, hash each record into its leaf, give them
 * the next indexes, append the leaves to the tree's frontier and store the new size and head. The request path only
 * inserts events; an event that commits late (a lower id than events already sequenced) simply gets a later index:
 * indexes follow the order events became visible, with no gap.
 */
export async function sequenceAuditLog(store: Store, maxBatch = SEQUENCE_BATCH): Promise<Sequenced> {
  return store.db.transaction().execute(async (trx) => {
    const state = await lockedState(store, trx);
    if (!state) return { sequenced: 0, size: null };
    const waiting = await waitingRecords(store, trx, state, maxBatch);
    if (waiting.length === 0) return { sequenced: 0, size: state.size };
    const run = planRun(state, waiting);
    await writeRun(store, trx, state, run);
    return { sequenced: waiting.length, size: run.size };
  });
}

/** Writes a run planned elsewhere (the planner thread), if the log is still in the state it was planned from. */
export async function writePlannedRun(store: Store, run: PlannedRun): Promise<Sequenced> {
  return store.db.transaction().execute(async (trx) => {
    const state = await lockedState(store, trx);
    if (!state || !(await writeRun(store, trx, state, run))) return { sequenced: 0, size: null };
    return { sequenced: run.ids.length, size: run.size };
  });
}

/**
 * The embedded store's planner: a worker thread with its own read-only connection that reads waiting events, hashes
 * their records and extends the frontier (sequencer-worker.ts). Plans come back as messages; the serving thread
 * writes them with its own connection, the store's one writer, so no second writer contends for the file's lock.
 */
class PlannerThread {
  private readonly worker;
  private next = 0;
  private readonly pending = new Map<number, { resolve(run: PlannedRun | null): void; reject(err: Error): void }>();
  private failed: Error | null = null;

  constructor(file: string) {
    // A small heap: a plan holds at most PLANNED_BATCH records (~350 KB); V8's default young generation alone would
    // add tens of MiB to the serving process (docs/performance.md#memory).
    this.worker = startWorkerThread(
      new URL("./sequencer-worker", import.meta.url),
      { file },
      { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
    );
    this.worker.unref();
    this.worker.on("message", (m: { id: number; run?: PlannedRun | null; error?: string }) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error !== undefined) p?.reject(new Error(m.error));
      else p?.resolve(m.run ?? null);
    });
    const fail = (err: Error) => {
      this.failed = err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => fail(new Error(`the audit sequencer's planner thread exited (${code})`)));
  }

  get broken(): boolean {
    return this.failed !== null;
  }

  plan(maxBatch: number): Promise<PlannedRun | null> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, maxBatch });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * Runs the sequencer every `intervalMs` in the serving process, and again at once while runs come back full. On the
 * embedded store the hashing is planned in a worker thread (the request thread only writes the planned leaves); on
 * PostgreSQL the run is one transaction here (the database does most of the work). A failed run is logged and
 * retried at the next tick (events wait; nothing is lost).
 */
export class AuditSequencerLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private planner: PlannerThread | null = null;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly intervalMs = 1000,
    /** Plan on a worker thread (the embedded store only); false: every run in this thread, as sequenceAuditLog. */
    private readonly plannerThread = store.file !== undefined,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /** One run: planned on the worker thread and written here, or all here. */
  private async runOnce(): Promise<Sequenced & { full: boolean }> {
    if (!this.plannerThread || this.stopped || this.store.file === undefined) {
      const run = await sequenceAuditLog(this.store);
      return { ...run, full: run.sequenced === SEQUENCE_BATCH };
    }
    if (!this.planner || this.planner.broken) {
      await this.planner?.close();
      this.planner = new PlannerThread(this.store.file);
    }
    const run = await this.planner.plan(PLANNED_BATCH);
    if (!run) return { sequenced: 0, size: null, full: false };
    return { ...(await writePlannedRun(this.store, run)), full: run.ids.length === PLANNED_BATCH };
  }

  /** One round: sequence until nothing waits (or another process holds the log). */
  tick(): Promise<void> {
    if (!this.running) {
      this.running = (async () => {
        try {
          for (;;) {
            if (!(await this.runOnce()).full) break;
            await new Promise((r) => setImmediate(r));
          }
        } catch (err) {
          this.logger.warn({ err }, "audit sequencing failed; retrying at the next tick");
        } finally {
          this.running = null;
        }
      })();
    }
    return this.running;
  }

  /** Stops the timer and the planner thread (a round in progress finishes; `tick()` still works, in this thread). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.planner?.close();
    this.planner = null;
  }
}
