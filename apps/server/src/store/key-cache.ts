import type { Plan, Tier } from "@hcs/protocol";
import type SQLite from "better-sqlite3";
import type { ChangeListener } from "./pg-change-listener.js";

/** What authenticating a key needs from its row and its account's, as the store last gave it. */
export interface CachedKey {
  /** SHA-256 of the key's secret (compared in constant time with the presented secret's). */
  readonly secretHash: Buffer;
  readonly revokedAt: string | null;
  readonly expiresAt: string | null;
  readonly accountId: string;
  readonly plan: Plan;
  readonly tier: Tier;
}

/**
 * The key rows of recently authenticated keys, kept in memory so that a request does not join api_keys and
 * accounts to authenticate (docs/performance.md, hot path). A change is pushed through, never waited out:
 * - any statement that changes what authentication reads — a key revoked, expired, re-secreted, moved or deleted;
 *   an account's plan or tier changed, or the account deleted — fires a trigger (migration 021), whatever process
 *   and whatever code path ran it (the API, the operator CLI, a psql session);
 * - SQLite: the trigger bumps a counter that the first lookup of each event-loop turn reads (one single-row read
 *   instead of a join per lookup); a changed counter empties the cache before the lookup, so another process's
 *   revocation holds from the next event-loop turn on;
 * - PostgreSQL: the trigger sends a notification (`LISTEN hcs_auth_changed`) that empties the cache in every
 *   server process when it arrives, a few milliseconds after the commit; while the listening connection is not
 *   established (starting, lost, reconnecting) nothing is served from the cache.
 * Unknown key ids are never cached: a guess is looked up (and rate-limited) every time.
 */
export interface KeyCache {
  /** The cached row of a key id, or undefined (look it up, then `remember` it with the generation taken before). */
  get(keyId: string): CachedKey | undefined;
  /** Changes seen so far: taken before a store read, so a row read across a change is not remembered. */
  generation(): number;
  remember(keyId: string, row: CachedKey, generationBeforeRead: number): void;
  /** Whether a read made now sees committed rows only (as GradeCache.readsCommitted: SQLite beside an open transaction). */
  readsCommitted(): boolean;
  /**
   * This process changed what authentication reads (it revoked a key): forget now, without waiting for the
   * notification (PostgreSQL) — the change holds for this process's very next request.
   */
  forgetAll(): void;
  close(): Promise<void>;
}

/** Most keys kept: beyond it the oldest remembered is dropped (a deployment's active keys fit many times over). */
const MAX_KEYS = 20_000;

/**
 * Rows kept in memory until something changes: what the key cache and the grade cache (grade-cache.ts) both keep;
 * what differs is how a change reaches them. A row read across a change is not remembered (`generationBeforeRead`).
 */
export class GenerationMap<V> {
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
    if (this.rows.size >= this.maxRows) this.rows.delete(this.rows.keys().next().value as string);
    this.rows.set(key, row);
  }

  /** Something changed: forget everything (changes are rare; precise invalidation is not worth its bookkeeping). */
  changed(): void {
    this.changes++;
    this.rows.clear();
  }
}

/**
 * SQLite: the epoch a trigger-bumped counter holds, read by the first lookup of each event-loop turn (a single-row
 * read by primary key, synchronous); a changed epoch empties `rows` before the lookup. Returns false while there is
 * no counter (before its migration): nothing is then served from memory.
 */
export function epochCheckPerTurn(readEpoch: () => number | bigint | null, rows: { changed(): void }): () => boolean {
  let seen: number | bigint | null = null;
  let checkedThisTurn = false;
  const nextTurn = () => {
    checkedThisTurn = false;
  };
  return () => {
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
}

const EPOCH_SQL = "select epoch from auth_epoch where id = 1";

/**
 * SQLite: one connection serves the process, and other processes (the operator CLI) write to the same file, so the
 * counter is read before the lookups of each event-loop turn: a single-row read by primary key, synchronous. The
 * lookups of one turn are answered as of its start — as if their requests had come a moment earlier — and a change
 * this process makes itself is applied at once (`forgetAll`).
 */
export function sqliteKeyCache(prepare: (sql: string) => SQLite.Statement, inTransaction: () => boolean): KeyCache {
  const keys = new GenerationMap<CachedKey>(MAX_KEYS);
  // Before migration 021 there is no counter: nothing is served from the cache.
  const check = epochCheckPerTurn(
    () => (prepare(EPOCH_SQL).get() as { epoch: number | bigint } | undefined)?.epoch ?? null,
    keys,
  );
  let counted = false;
  return {
    get(keyId) {
      counted = check();
      if (!counted) return undefined;
      return keys.get(keyId);
    },
    generation: () => keys.generation(),
    remember: (keyId, row, generation) => {
      if (counted) keys.remember(keyId, row, generation);
    },
    forgetAll: () => keys.changed(),
    readsCommitted: () => !inTransaction(),
    close: async () => {},
  };
}

/** The channel migration 021's trigger notifies on PostgreSQL; the payload is the schema whose rows changed. */
export const AUTH_CHANGED_CHANNEL = "hcs_auth_changed";

/**
 * PostgreSQL: the store's change listener (pg-change-listener.ts) empties the cache when migration 021's trigger
 * notifies. The cache serves rows only while that connection is up and listening.
 */
export function postgresKeyCache(listener: ChangeListener): KeyCache {
  const keys = new GenerationMap<CachedKey>(MAX_KEYS);
  listener.on(AUTH_CHANGED_CHANNEL, keys);
  return {
    get: (keyId) => (listener.listening() ? keys.get(keyId) : undefined),
    generation: () => keys.generation(),
    remember: (keyId, row, generation) => {
      if (listener.listening()) keys.remember(keyId, row, generation);
    },
    forgetAll: () => keys.changed(),
    readsCommitted: () => true,
    close: () => listener.close(),
  };
}
