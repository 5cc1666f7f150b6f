import type { Plan, Tier } from "@hcs/protocol";
import type SQLite from "better-sqlite3";
import type { ChangeListener } from "./pg-change-listener.js";
import { postgresRowCache, type RowCache, sqliteRowCache } from "./row-cache.js";

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
 * accounts to authenticate (docs/performance.md#caches-on-the-hot-path). A change is pushed through, never waited out:
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
export interface KeyCache extends RowCache<CachedKey> {
  /** Stops listening (PostgreSQL's change listener, which the grade cache shares: closed with the store). */
  close(): Promise<void>;
}

/** Most keys kept: beyond it the oldest remembered is dropped (a deployment's active keys fit many times over). */
const MAX_KEYS = 20_000;

/**
 * SQLite: one connection serves the process, and other processes (the operator CLI) write to the same file, so the
 * counter is read before the lookups of each event-loop turn. A change this process makes itself (a revocation) is
 * applied at once (`forgetAll`).
 */
export function sqliteKeyCache(prepare: (sql: string) => SQLite.Statement, inTransaction: () => boolean): KeyCache {
  return {
    ...sqliteRowCache<CachedKey>({
      maxRows: MAX_KEYS,
      epochSql: "select epoch from auth_epoch where id = 1",
      prepare,
      inTransaction,
    }),
    close: async () => {},
  };
}

/** The channel migration 021's trigger notifies on PostgreSQL; the payload is the schema whose rows changed. */
export const AUTH_CHANGED_CHANNEL = "hcs_auth_changed";

/** PostgreSQL: emptied when migration 021's trigger notifies; nothing served while the listener is down. */
export function postgresKeyCache(listener: ChangeListener): KeyCache {
  return {
    ...postgresRowCache<CachedKey>({ maxRows: MAX_KEYS, listener, channel: AUTH_CHANGED_CHANNEL }),
    close: () => listener.close(),
  };
}
