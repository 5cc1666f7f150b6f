import { hash } from "node:crypto";
import { HASH_BYTES, MerkleFrontier, type TreeHasher, toHex, treeHasher } from "@hcs/protocol";
import { sql } from "kysely";
import type { Logger } from "pino";
import { insertRows } from "../store/hot-sql.js";
import type { Store } from "../store/store.js";

const LEAF_COLUMNS = ["leaf_index", "event_id", "leaf_hash"] as const;

const generic = treeHasher((data) => hash("sha256", data, "buffer"));
/** 0x01 and two 32-byte children: one buffer reused for every node (hash() copies its input; no allocation). */
const nodeInput = Buffer.alloc(1 + 2 * HASH_BYTES, 1);

/**
 * RFC 9162 hashing with Node's native SHA-256 (the package's plain TypeScript one is for verifiers elsewhere). Node
 * hashes — one per leaf when a tree is built — are computed in a reused buffer.
 */
export const NATIVE_RFC9162: TreeHasher = {
  emptyRoot: generic.emptyRoot,
  leaf: generic.leaf,
  node(left, right) {
    if (left.length !== HASH_BYTES || right.length !== HASH_BYTES) return generic.node(left, right);
    nodeInput.set(left, 1);
    nodeInput.set(right, 1 + HASH_BYTES);
    return hash("sha256", nodeInput, "buffer");
  },
};

/**
 * Most events one sequencer run indexes (one transaction). A run costs ~9 µs per event on SQLite and blocks the event
 * loop while it runs, so runs stay short (~2–3 ms) and the loop yields to requests between them.
 */
export const SEQUENCE_BATCH = 250;

export interface Sequenced {
  /** Events given their leaf index by this run (0 when none waited, or another sequencer held the log). */
  readonly sequenced: number;
  /** The log's size after the run (null when another sequencer held the log). */
  readonly size: number | null;
}

/**
 * Integrates waiting audit events into the log, as Trillian's sequencer does: in one transaction, lock the log's
 * state row (on PostgreSQL a sequencer that finds it locked skips this run: one sequencer at a time across
 * processes), take the committed events that have no leaf index in id order, give them the next indexes, append
 * their leaf hashes to the tree's frontier and store the new size and head. The request path only inserts events;
 * an event that commits late (a lower id than events already sequenced) simply gets a later index: indexes follow
 * the order events became visible, with no gap.
 */
export async function sequenceAuditLog(store: Store, maxBatch = SEQUENCE_BATCH): Promise<Sequenced> {
  return store.db.transaction().execute(async (trx) => {
    const lock = store.engine === "postgres" ? sql` for update skip locked` : sql``;
    const state = (
      await sql<{
        size: number | string;
        frontier: string;
        sequenced_id: number | string;
      }>`select size, frontier, sequenced_id from audit_log where id = 1${lock}`.execute(trx)
    ).rows[0];
    if (!state) return { sequenced: 0, size: null };
    const size = Number(state.size);
    // SQLite hands ids out in commit order (one writer at a time): what waits is above the last id sequenced.
    // PostgreSQL's writers commit out of id order: what waits has no leaf index (a partial index finds it).
    const waiting = await trx
      .selectFrom("audit_events")
      .select(["id", "leaf_hash"])
      .$call((q) =>
        store.engine === "sqlite" ? q.where("id", ">", Number(state.sequenced_id)) : q.where("leaf_index", "is", null),
      )
      .orderBy("id")
      .limit(maxBatch)
      .execute();
    if (waiting.length === 0) return { sequenced: 0, size };
    const frontier = MerkleFrontier.restore(NATIVE_RFC9162, JSON.parse(state.frontier));
    if (frontier.size !== size)
      throw new Error(`audit log state is inconsistent: size ${size}, frontier ${frontier.size}`);
    const leaves = waiting.map((event, i) => {
      // Node's hex decoder (the package's fromHex is for verifiers without Node): it stops at the first non-hex
      // character, so the length check also refuses a malformed hash.
      const leaf = Buffer.from(event.leaf_hash, "hex");
      if (leaf.length !== 32 || event.leaf_hash.length !== 64)
        throw new Error(`audit event ${event.id} has a malformed leaf hash`);
      frontier.append(leaf);
      return [size + i, event.id, leaf];
    });
    // The leaves, appended to their narrow table (migration 018): the wide event rows are not rewritten.
    await insertRows(store.hot, trx, "audit_leaves", LEAF_COLUMNS, leaves);
    const runs = consecutiveRuns(waiting.map((e) => Number(e.id)));
    // PostgreSQL finds waiting events by this mark (one statement per run of consecutive ids: index = id + offset).
    if (store.engine === "postgres")
      for (const run of runs)
        await sql`update audit_events set leaf_index = id + ${size + run.at - run.first}
                  where id >= ${run.first} and id <= ${run.last} and leaf_index is null`.execute(trx);
    // The journal `audit verify` checks each event's index against (one row per run: one per batch on SQLite).
    await trx
      .insertInto("audit_sequence_runs")
      .values(runs.map((r) => ({ first_index: size + r.at, first_id: r.first, last_id: r.last })))
      .execute();
    await trx
      .updateTable("audit_log")
      .set({
        size: frontier.size,
        frontier: JSON.stringify(frontier.toJSON()),
        root_hash: toHex(frontier.root()),
        updated_at: new Date().toISOString(),
        sequenced_id: Number(waiting[waiting.length - 1]!.id),
      })
      .where("id", "=", 1)
      .execute();
    return { sequenced: waiting.length, size: frontier.size };
  });
}

/** Ascending ids as runs of consecutive values, each with its position in the list. */
export function consecutiveRuns(ids: readonly number[]): { first: number; last: number; at: number }[] {
  const runs: { first: number; last: number; at: number }[] = [];
  for (const [i, id] of ids.entries()) {
    const run = runs[runs.length - 1];
    if (run && id === run.last + 1) run.last = id;
    else runs.push({ first: id, last: id, at: i });
  }
  return runs;
}

/**
 * Runs the sequencer every `intervalMs` in the serving process, and again at once while runs come back full. A
 * failed run is logged and retried at the next tick (events wait; nothing is lost).
 */
export class AuditSequencerLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /** One round: sequence until nothing waits (or another process holds the log). */
  tick(): Promise<void> {
    if (!this.running) {
      this.running = (async () => {
        try {
          for (;;) {
            const run = await sequenceAuditLog(this.store);
            if (run.sequenced < SEQUENCE_BATCH) break;
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

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
