import { setTimeout as sleep } from "node:timers/promises";
import type SQLite from "better-sqlite3";

const isBusy = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === "SQLITE_BUSY";

/**
 * How one connection begins and ends its write transactions, at the least cost per transaction: BEGIN, COMMIT and
 * ROLLBACK prepared once, and the busy-timeout switches run by `exec`. A busy_timeout PRAGMA cannot be prepared once
 * and re-run: SQLite applies it while compiling the statement, so a re-run changes nothing; better-sqlite3's
 * `pragma()` compiles it into a statement object every time, and that was a third of an empty transaction's time
 * (28–40 µs against 20–30 µs by `exec`, docs/performance.md#sqlites-transactions) — paid by every group commit, and
 * by the whole of a lone request's settlement when the server is not busy.
 */
export interface SqliteTransactions {
  /**
   * One attempt at BEGIN IMMEDIATE (the write lock, now) that does not wait: the connection's busy timeout is lifted
   * for the BEGIN alone and put back, all synchronously, so no other statement on the connection runs without it.
   * True when the transaction began, false when another connection holds the lock.
   */
  tryBeginImmediate(): boolean;
  commit(): void;
  /** Rolls back the open transaction; nothing when SQLite already rolled it back (after SQLITE_FULL, say). */
  rollback(): void;
}

/** {@link SqliteTransactions} of a connection whose busy timeout is `busyTimeoutMs`. */
export function sqliteTransactions(sqlite: SQLite.Database, busyTimeoutMs: number): SqliteTransactions {
  const restore = `pragma busy_timeout = ${busyTimeoutMs}`;
  const begin = sqlite.prepare("begin immediate");
  const commit = sqlite.prepare("commit");
  const rollback = sqlite.prepare("rollback");
  return {
    tryBeginImmediate() {
      sqlite.exec("pragma busy_timeout = 0");
      try {
        begin.run();
        return true;
      } catch (err) {
        if (isBusy(err)) return false;
        throw err;
      } finally {
        sqlite.exec(restore);
      }
    },
    commit: () => void commit.run(),
    rollback() {
      // A rollback that failed on "no transaction is active" would hide the error that ended the transaction.
      if (sqlite.inTransaction) rollback.run();
    },
  };
}

/**
 * BEGIN IMMEDIATE without blocking the thread while another connection holds the write lock. SQLite's own wait
 * (busy_timeout) sleeps inside the call: on the serving thread that froze every request for as long as another connection
 * (the audit sequencer, an operator command) held the lock — 1, 2, 5, 10… ms at a time, with the sequencer's runs beginning many times a second
 * under load (docs/performance.md#sqlites-transactions). So the wait is ours and asynchronous: a refused attempt is
 * tried again after 1, 2, 4… (at most 16) ms until `waitMs` have passed — the same patience, the event loop free
 * meanwhile. Fails as SQLite would (SQLITE_BUSY) when the lock never came.
 */
export async function beginImmediate(
  transactions: SqliteTransactions,
  waitMs: number,
  now: () => number = Date.now,
): Promise<void> {
  const deadline = now() + waitMs;
  for (let delay = 1; !transactions.tryBeginImmediate(); delay = Math.min(delay * 2, 16)) {
    if (now() >= deadline)
      throw Object.assign(new Error(`database is locked (waited ${waitMs} ms for the write lock)`), {
        code: "SQLITE_BUSY",
      });
    await sleep(Math.min(delay, Math.max(1, deadline - now())));
  }
}
