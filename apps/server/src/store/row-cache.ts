import type SQLite from "better-sqlite3";
import type { ChangeListener } from "./pg-change-listener.js";

/**
 * Rows of the store kept in memory until a trigger says they changed: the key cache (key-cache.ts) and the grade
 * cache (grade-cache.ts) are both one of these; what differs between the engines is how a change reaches them.
 * - SQLite: the trigger bumps a counter that the first lookup of each event-loop turn reads (a single-row read by
 *   primary key, synchronous); a changed counter empties the cache before that lookup, so a change made by any
 *   process holds from the next turn on. The lookups of one turn are answered as of its start.
 * - PostgreSQL: the trigger sends a notification that the store's change listener (pg-change-listener.ts) hears a
 *   few milliseconds after the commit, in every server process; nothing is served from memory while it is down.
 */
export interface RowCache<V> {
  /** The cached row, or undefined (read it, then `remember` it with the generation taken before the read). */
  get(key: string): V | undefined;
  /** Changes seen so far: taken before a store read, so a row read across a change is not remembered. */
  generation(): number;
  remember(key: string, row: V, generationBeforeRead: number): void;
  /**
   * Whether a read made now sees committed rows only. SQLite's one connection also serves the requests that run
   * beside an open write transaction (a scan upload yields between batches), and a read there sees its uncommitted
   * rows: a row read so is answered but never remembered (the transaction may yet roll back).
   */
  readsCommitted(): boolean;
  /** This process made a change the cache must see: forget now, without waiting for the counter or notification. */
  forgetAll(): void;
}

/** The rows, and how many changes have emptied them. */
class GenerationMap<V> {
  private readonly rows = new Map<string, V>();
  private changes = 0;

  constructor(private readonly maxRows: number) {}

  get(key: string): V | undefined {
    return this.rows.get(key);
  }

  generation(): number {
    return this.changes;
  }

  remember(key: string, row: V, generationBeforeRead: number): void {
    if (generationBeforeRead !== this.changes) return;
    // Beyond the bound the oldest remembered is dropped.
    if (this.rows.size >= this.maxRows) this.rows.delete(this.rows.keys().next().value as string);
    this.rows.set(key, row);
  }

  /** Something changed: forget everything (changes are rare; precise invalidation is not worth its bookkeeping). */
  changed(): void {
    this.changes++;
    this.rows.clear();
  }
}

export interface SqliteRowCacheOptions {
  readonly maxRows: number;
  /** Reads the trigger's counter: `select epoch from <table> where id = 1`. */
  readonly epochSql: string;
  readonly prepare: (sql: string) => SQLite.Statement;
  readonly inTransaction: () => boolean;
}

/** The embedded store's row cache (see RowCache). */
export function sqliteRowCache<V>(options: SqliteRowCacheOptions): RowCache<V> {
  const rows = new GenerationMap<V>(options.maxRows);
  let epochStatement: SQLite.Statement | null = null;
  // Before the counter's migration there is no counter (and preparing its read fails): nothing is served from memory.
  const readEpoch = (): number | bigint | null => {
    try {
      epochStatement ??= options.prepare(options.epochSql);
    } catch {
      return null;
    }
    return (epochStatement.get() as { epoch: number | bigint } | undefined)?.epoch ?? null;
  };
  let seen: number | bigint | null = null;
  let checkedThisTurn = false;
  const nextTurn = () => {
    checkedThisTurn = false;
  };
  /** Reads the counter once per turn; false while there is none. */
  const counted = (): boolean => {
    if (checkedThisTurn) return seen !== null;
    checkedThisTurn = true;
    setImmediate(nextTurn);
    const epoch = readEpoch();
    if (epoch === null || epoch !== seen) {
      rows.changed();
      seen = epoch;
    }
    return epoch !== null;
  };
  return {
    get: (key) => (counted() ? rows.get(key) : undefined),
    generation: () => rows.generation(),
    remember(key, row, generation) {
      if (seen !== null) rows.remember(key, row, generation);
    },
    readsCommitted: () => !options.inTransaction(),
    forgetAll: () => rows.changed(),
  };
}

export interface PostgresRowCacheOptions {
  readonly maxRows: number;
  readonly listener: ChangeListener;
  /** The channel the trigger notifies on (its payload is the schema whose rows changed). */
  readonly channel: string;
}

/** PostgreSQL's row cache (see RowCache). */
export function postgresRowCache<V>(options: PostgresRowCacheOptions): RowCache<V> {
  const rows = new GenerationMap<V>(options.maxRows);
  const { listener } = options;
  listener.on(options.channel, rows);
  return {
    get: (key) => (listener.listening() ? rows.get(key) : undefined),
    generation: () => rows.generation(),
    remember(key, row, generation) {
      if (listener.listening()) rows.remember(key, row, generation);
    },
    // Lookups read through the pool, outside any transaction.
    readsCommitted: () => true,
    forgetAll: () => rows.changed(),
  };
}
