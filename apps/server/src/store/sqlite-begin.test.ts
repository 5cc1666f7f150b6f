import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { beginImmediate, sqliteTransactions } from "./sqlite-begin.js";
import { openSqliteWriter } from "./sqlite-connection.js";
import { openStore } from "./store.js";

const dir = mkdtempSync(join(tmpdir(), "hcs-sqlite-begin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The longest the event loop went without running a 2 ms interval timer while `work` ran. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const t = performance.now();
    stallMs = Math.max(stallMs, t - last);
    last = t;
  }, 2);
  try {
    const value = await work();
    stallMs = Math.max(stallMs, performance.now() - last);
    return { value, stallMs };
  } finally {
    clearInterval(timer);
  }
}

/** Another connection to `file` that holds the write lock for `ms`. */
function holdWriteLock(file: string, ms: number): Promise<void> {
  const other = new SQLite(file);
  other.exec("begin immediate");
  return new Promise((resolve) =>
    setTimeout(() => {
      other.exec("commit");
      other.close();
      resolve();
    }, ms),
  );
}

describe("a SQLite write transaction waiting for another connection's lock", () => {
  it("waits without blocking the thread, then begins once the lock is released", async () => {
    const file = join(dir, "store.sqlite");
    const store = openStore({ engine: "sqlite", file });
    try {
      await store.migrate();
      const released = holdWriteLock(file, 600);
      const t0 = performance.now();
      const { value, stallMs } = await longestStall(() =>
        store.db
          .transaction()
          .execute(async (trx) => (await sql<{ n: number }>`select 1 as n`.execute(trx)).rows[0]!.n),
      );
      await released;
      expect(value).toBe(1);
      // It waited for the lock (~600 ms) …
      expect(performance.now() - t0).toBeGreaterThanOrEqual(550);
      // … while timers kept running (a bound a loaded machine's scheduling stays under): SQLite's own wait held the
      // thread, so the timer that releases the lock could not run before its 5 s busy timeout.
      expect(stallMs).toBeLessThan(250);
    } finally {
      await store.close();
    }
  });

  it("gives up as SQLite would (SQLITE_BUSY) when the lock does not come in time, its busy timeout restored", async () => {
    const file = join(dir, "raw.sqlite");
    const mine = openSqliteWriter(file);
    const transactions = sqliteTransactions(mine, 5000);
    const released = holdWriteLock(file, 900);
    try {
      const { value: err, stallMs } = await longestStall(() =>
        beginImmediate(transactions, 500).then(
          () => null,
          (e: unknown) => e,
        ),
      );
      expect(err).toMatchObject({ code: "SQLITE_BUSY" });
      expect(stallMs).toBeLessThan(250);
      expect(mine.pragma("busy_timeout", { simple: true })).toBe(5000);
      await released;
      await beginImmediate(transactions, 5000);
      transactions.commit();
      expect(mine.inTransaction).toBe(false);
      expect(mine.pragma("busy_timeout", { simple: true })).toBe(5000);
    } finally {
      mine.close();
    }
  });

  it("passes on an error that is not the lock, the busy timeout restored", async () => {
    const mine = openSqliteWriter(join(dir, "nested.sqlite"));
    try {
      const transactions = sqliteTransactions(mine, 5000);
      mine.exec("begin");
      await expect(beginImmediate(transactions, 5000)).rejects.toThrow(/within a transaction/);
      expect(mine.pragma("busy_timeout", { simple: true })).toBe(5000);
    } finally {
      mine.close();
    }
  });

  it("begins, commits and rolls back again and again, and rolls back only a transaction that is still open", () => {
    const mine = openSqliteWriter(join(dir, "prepared.sqlite"));
    try {
      const transactions = sqliteTransactions(mine, 5000);
      mine.exec("create table t (n integer)");
      for (let i = 0; i < 3; i++) {
        expect(transactions.tryBeginImmediate()).toBe(true);
        mine.exec(`insert into t values (${i})`);
        if (i === 1) transactions.rollback();
        else transactions.commit();
      }
      expect(mine.prepare("select group_concat(n) as ns from t").get()).toEqual({ ns: "0,2" });
      // Already ended (as when SQLite rolled it back itself): nothing to do, and no "no transaction is active".
      expect(() => transactions.rollback()).not.toThrow();
      expect(mine.pragma("busy_timeout", { simple: true })).toBe(5000);
    } finally {
      mine.close();
    }
  });
});
