import { setTimeout as sleep } from "node:timers/promises";
import type SQLite from "better-sqlite3";

const isBusy = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === "SQLITE_BUSY";

/**
 * One attempt at BEGIN IMMEDIATE (the write lock, now) that does not wait: the connection's busy timeout is lifted
 * for the BEGIN alone and put back, all synchronously, so no other statement on the connection runs without it.
 * True when the transaction began, false when another connection holds the lock.
 */
export function tryBeginImmediate(sqlite: SQLite.Database, busyTimeoutMs: number): boolean {
  sqlite.pragma("busy_timeout = 0");
  try {
    sqlite.exec("begin immediate");
    return true;
  } catch (err) {
    if (isBusy(err)) return false;
    throw err;
  } finally {
    sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
  }
}

/**
 * BEGIN IMMEDIATE without blocking the thread while another connection holds the write lock. SQLite's own wait
 * (busy_timeout) sleeps inside the call: on the serving thread that froze every request for as long as the settlement
 * writer thread held the lock — 1, 2, 5, 10… ms at a time, with the sequencer's runs beginning many times a second
 * under load (docs/performance.md, the p99 tail). So the wait is ours and asynchronous: a refused attempt is tried
 * again after 1, 2, 4… (at most 16) ms until `waitMs` have passed — the same patience, the event loop free meanwhile.
 * Fails as SQLite would (SQLITE_BUSY) when the lock never came.
 */
export async function beginImmediate(
  sqlite: SQLite.Database,
  waitMs: number,
  now: () => number = Date.now,
): Promise<void> {
  const deadline = now() + waitMs;
  for (let delay = 1; !tryBeginImmediate(sqlite, waitMs); delay = Math.min(delay * 2, 16)) {
    if (now() >= deadline)
      throw Object.assign(new Error(`database is locked (waited ${waitMs} ms for the write lock)`), {
        code: "SQLITE_BUSY",
      });
    await sleep(Math.min(delay, Math.max(1, deadline - now())));
  }
}
