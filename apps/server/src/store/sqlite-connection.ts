import SQLite from "better-sqlite3";

/** How long a writer waits for another connection's write lock before it gives up (SQLITE_BUSY). */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * A connection that writes the embedded store's file, with the settings every writer uses (the serving connection's, the
 * audit sequencer's, operator commands').
 */
export function openSqliteWriter(file: string, options?: SQLite.Options): SQLite.Database {
  const sqlite = new SQLite(file, options);
  // WAL lets readers in other processes run beside the writer.
  sqlite.pragma("journal_mode = WAL");
  // NORMAL in WAL mode: a commit survives a crash of this process (SIGKILL included) but is fsynced at
  // checkpoints rather than on every commit; FULL would block the event loop ~0.7 ms per commit here
  // (docs/performance.md#hot-statements-without-the-query-builder). Deployments that need power-loss durability run
  // PostgreSQL.
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  // Another connection may hold the write lock (the other thread, an operator command in another process).
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  return sqlite;
}

/**
 * Kysely prepares every query anew; better-sqlite3's prepare is the costliest step of a small query, and our
 * queries repeat, so statements are cached by SQL text (Kysely runs one statement at a time per connection).
 */
export function withStatementCache(sqlite: SQLite.Database): {
  close(): void;
  prepare(sql: string): SQLite.Statement;
} {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        if (cache.size >= 1000) cache.clear();
        stmt = sqlite.prepare(sql);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}
