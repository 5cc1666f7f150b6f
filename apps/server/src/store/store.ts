import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import type pgModule from "pg";
import { type HotSql, postgresHotSql, sqliteHotSql } from "./hot-sql.js";
import type { Engine } from "./migrations/engine.js";
import { migrationsFor } from "./migrations/index.js";
import type { Database } from "./schema.js";
import { WriteBatcher } from "./write-batcher.js";

export type { Engine };

export interface Store {
  readonly engine: Engine;
  readonly db: Kysely<Database>;
  /** Group commit for hot-path writes (DESIGN §4): ops queued in one event-loop turn share one transaction. */
  readonly writes: WriteBatcher;
  /** Portable raw statements for the per-request hot path (see hot-sql.ts). */
  readonly hot: HotSql;
  /** Where the data lives, for logs (never includes a password). */
  readonly description: string;
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

export type StoreOptions =
  | { engine: "sqlite"; file: string }
  | { engine: "postgres"; url: string; schema?: string; poolSize?: number };

// The PostgreSQL driver is loaded only when PostgreSQL is used (the embedded default never needs it).
const require = createRequire(import.meta.url);
function loadPg(): typeof pgModule {
  const pg = require("pg") as typeof pgModule;
  // PostgreSQL returns int8 (bigint, count(*)) as strings; our values stay far below 2^53, so read them as numbers.
  pg.types.setTypeParser(20, (v) => {
    const n = Number(v);
    if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${v} exceeds the safe integer range`);
    return n;
  });
  return pg;
}

/** Opens the store described by the options (does not migrate; call migrate()). */
export function openStore(options: StoreOptions): Store {
  if (options.engine === "sqlite") {
    const sqlite = new SQLite(options.file);
    // WAL lets readers in other processes run beside the writer.
    sqlite.pragma("journal_mode = WAL");
    // NORMAL in WAL mode: a commit survives a crash of this process (SIGKILL included) but is fsynced at
    // checkpoints rather than on every commit; FULL would block the event loop ~0.7 ms per commit here
    // (docs/performance.md). Deployments that need power-loss durability run PostgreSQL.
    sqlite.pragma("synchronous = NORMAL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    // One statement cache serves the query builder and the hot path: both run synchronously on this connection.
    const connection = withStatementCache(sqlite);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
    return makeStore("sqlite", db, sqliteHotSql(connection.prepare), `sqlite:${options.file}`);
  }
  const url = new URL(options.url);
  const pool = new (loadPg().Pool)({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // Each test run (and each operator who wants it) can live in its own schema.
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  url.password = url.password ? "***" : "";
  return makeStore(
    "postgres",
    db,
    postgresHotSql(),
    `postgres:${url.host}${url.pathname}${options.schema ? `#${options.schema}` : ""}`,
  );
}

function makeStore(engine: Engine, db: Kysely<Database>, hot: HotSql, description: string): Store {
  const writes = new WriteBatcher(db);
  return {
    engine,
    db,
    writes,
    hot,
    description,
    async migrate() {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(engine) } });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw error;
      return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
    },
    async close() {
      await writes.drain();
      await db.destroy();
    },
  };
}

/**
 * Kysely prepares every query anew; better-sqlite3's prepare is the costliest step of a small query, and our
 * queries repeat, so statements are cached by SQL text (Kysely runs one statement at a time per connection).
 */
function withStatementCache(sqlite: SQLite.Database) {
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

/** The embedded default: SQLite in the data directory. */
export function storeOptionsFor(config: { dataDir: string; databaseUrl: string | null }): StoreOptions {
  if (config.databaseUrl) return { engine: "postgres", url: config.databaseUrl };
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  return { engine: "sqlite", file: join(config.dataDir, "hcs.sqlite") };
}
