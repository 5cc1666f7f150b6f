import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type SQLite from "better-sqlite3";
import {
  type DatabaseConnection,
  type Driver,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from "kysely";
import type pgModule from "pg";
import { checkDataDirMode, ensureOwnerOnlyFile } from "../util/private-files.js";
import { type AuditLayout, type EngineLocks, engineCapabilities } from "./engine-capabilities.js";
import { type GradeCache, postgresGradeCache, sqliteGradeCache } from "./grade-cache.js";
import { type HotSql, sqliteHotSql } from "./hot-sql.js";
import { postgresHotSql } from "./hot-sql-postgres.js";
import { type KeyCache, postgresKeyCache, sqliteKeyCache } from "./key-cache.js";
import type { Engine } from "./migrations/engine.js";
import { migrationsFor } from "./migrations/index.js";
import { postgresChangeListener } from "./pg-change-listener.js";
import { OwnSchemaPostgresDialect } from "./postgres-migration-dialect.js";
import { createPostgresPool, DEFAULT_POSTGRES_TIMEOUTS, type PostgresTimeouts } from "./postgres-pool.js";
import { RateMirror } from "./rate-mirror.js";
import type { Database } from "./schema.js";
import { beginImmediate, type SqliteTransactions, sqliteTransactions } from "./sqlite-begin.js";
import { openSqliteWriter, SQLITE_BUSY_TIMEOUT_MS, withStatementCache } from "./sqlite-connection.js";
import { WriteBatcher } from "./write-batcher.js";

export type { Engine };

export interface Store {
  readonly engine: Engine;
  readonly db: Kysely<Database>;
  /**
   * Row and transaction locks in the engine's idiom (claiming rows several workers want, locking a row to change
   * it, serializing transactions): see engine-capabilities.ts. Code outside the store asks these, never the engine.
   */
  readonly locks: EngineLocks;
  /** How the audit trail is stored on this engine and what its writers guarantee (engine-capabilities.ts). */
  readonly audit: AuditLayout;
  /**
   * Group commit for hot-path writes (docs/architecture.md#4-settle): ops queued in one event-loop turn share one
   * transaction.
   */
  readonly writes: WriteBatcher;
  /** Portable raw statements for the per-request hot path (see hot-sql.ts). */
  readonly hot: HotSql;
  /** Recently authenticated keys, with every change pushed through (see key-cache.ts). */
  readonly keys: KeyCache;
  /** Recently looked-up practices' latest grade rows, with every change pushed through (see grade-cache.ts). */
  readonly grades: GradeCache;
  /** The rate-limit counts this process last saw committed (see rate-mirror.ts). */
  readonly rates: RateMirror;
  /** Where the data lives, for logs (never includes a password). */
  readonly description: string;
  /** The database file of the embedded store (a verifier's worker threads open their own read-only connections). */
  readonly file?: string;
  /** Connection pool counters (PostgreSQL), for metrics; null for the embedded store. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /**
   * True when the store answers a trivial query within `timeoutMs`. Concurrent callers share one query, so a
   * database that hangs is not sent a new probe for every readiness check.
   */
  ping(timeoutMs: number): Promise<boolean>;
  /**
   * Applies pending migrations — all of them, or up to and including `until` (tests that check how a migration
   * converts rows written before it) — and returns the names applied.
   */
  migrate(until?: string): Promise<string[]>;
  close(): Promise<void>;
}

export type StoreOptions =
  | {
      engine: "sqlite";
      file: string;
      /** Told when an existing database file was readable by others and has been made owner-only. */
      onWarning?: (message: string) => void;
    }
  | {
      engine: "postgres";
      url: string;
      schema?: string;
      poolSize?: number;
      timeouts?: PostgresTimeouts;
      /** Told when a pooled connection dies (it is replaced; in-flight work on it fails and is answered 503). */
      onConnectionError?: (err: Error) => void;
    };

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
    // The database holds findings about practices and the audit trail: owner-only, like the keys beside it.
    // SQLite creates its -wal and -shm files with the database file's mode; files left by older versions are
    // tightened too.
    for (const file of [options.file, `${options.file}-wal`, `${options.file}-shm`]) {
      if (file !== options.file && !existsSync(file)) continue;
      const was = ensureOwnerOnlyFile(file);
      if (was !== null)
        options.onWarning?.(`${file} was readable by others (mode ${was.toString(8)}); changed to owner-only (0600)`);
    }
    const sqlite = openSqliteWriter(options.file);
    // One statement cache serves the query builder and the hot path: both run synchronously on this connection.
    const connection = withStatementCache(sqlite);
    const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: connection }, sqlite) });
    return {
      ...makeStore(
        "sqlite",
        db,
        sqliteHotSql(connection.prepare),
        sqliteKeyCache(connection.prepare, () => sqlite.inTransaction),
        sqliteGradeCache(connection.prepare, () => sqlite.inTransaction),
        `sqlite:${options.file}`,
      ),
      file: options.file,
    };
  }
  const url = new URL(options.url);
  const pg = loadPg();
  const pool = createPostgresPool(pg, {
    url: options.url,
    timeouts: options.timeouts ?? DEFAULT_POSTGRES_TIMEOUTS,
    ...(options.schema ? { schema: options.schema } : {}),
    ...(options.poolSize ? { poolSize: options.poolSize } : {}),
    ...(options.onConnectionError ? { onConnectionError: options.onConnectionError } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  url.password = url.password ? "***" : "";
  // Migrations may run longer than any request statement: they get a connection of their own without the
  // statement timeout (connecting is still bounded).
  const migrationDb = () =>
    new Kysely<Database>({
      dialect: new OwnSchemaPostgresDialect({
        pool: createPostgresPool(pg, {
          url: options.url,
          poolSize: 1,
          ...(options.schema ? { schema: options.schema } : {}),
        }),
      }),
    });
  // One connection listens for the changes the caches must see (keys: migration 021; grades: 027).
  const changes = postgresChangeListener(pg, {
    url: options.url,
    connectMs: (options.timeouts ?? DEFAULT_POSTGRES_TIMEOUTS).connectMs,
    ...(options.schema ? { schema: options.schema } : {}),
    ...(options.onConnectionError ? { onConnectionError: options.onConnectionError } : {}),
  });
  const keys = postgresKeyCache(changes);
  const grades = postgresGradeCache(changes);
  return makeStore(
    "postgres",
    db,
    postgresHotSql(),
    keys,
    grades,
    `postgres:${url.host}${url.pathname}${options.schema ? `#${options.schema}` : ""}`,
    migrationDb,
    () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  );
}

function makeStore(
  engine: Engine,
  db: Kysely<Database>,
  hot: HotSql,
  keys: KeyCache,
  grades: GradeCache,
  description: string,
  migrationDb: () => Kysely<Database> = () => db,
  poolStats: Store["poolStats"] = () => null,
): Store {
  const writes = new WriteBatcher(db);
  let probe: Promise<boolean> | null = null;
  const { locks, audit } = engineCapabilities(engine);
  return {
    engine,
    db,
    locks,
    audit,
    writes,
    hot,
    keys,
    grades,
    rates: new RateMirror(),
    description,
    poolStats,
    ping(timeoutMs) {
      probe ??= sql`select 1`
        .execute(db)
        .then(
          () => true,
          () => false,
        )
        .finally(() => {
          probe = null;
        });
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      return Promise.race([probe, late]).finally(() => clearTimeout(timer));
    },
    async migrate(until) {
      const mdb = migrationDb();
      try {
        // Kysely decides whether its bookkeeping tables exist by looking in every schema unless told which one;
        // with another schema of the same database holding them (other tenants, parallel test runs) it would skip
        // creating its own. Name the schema the connection actually uses.
        const schema =
          engine === "postgres"
            ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(mdb)).rows[0]?.schema
            : undefined;
        const migrator = new Migrator({
          db: mdb,
          provider: { getMigrations: async () => migrationsFor(engine) },
          ...(schema ? { migrationTableSchema: schema } : {}),
        });
        const { error, results } = await (until ? migrator.migrateTo(until) : migrator.migrateToLatest());
        if (error) throw error;
        return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
      } finally {
        if (mdb !== db) await mdb.destroy();
      }
    },
    async close() {
      await writes.drain();
      await keys.close();
      await db.destroy();
    },
  };
}

/**
 * SQLite transactions that take the write lock when they begin (BEGIN IMMEDIATE), waiting up to busy_timeout for it.
 * Another connection writes beside this one — the audit sequencer's, operator commands in other processes —
 * and a deferred transaction that read before its first write fails at that write (SQLITE_BUSY_SNAPSHOT, which no
 * wait resolves) whenever the other connection committed in between.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    private readonly sqlite: SQLite.Database,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings, this.sqlite);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  // On the connection's own handle (the one the driver's connection wraps), prepared once (sqlite-begin.ts).
  private readonly transactions: SqliteTransactions;

  constructor(settings: SqliteDialectConfig, sqlite: SQLite.Database) {
    super(settings);
    this.transactions = sqliteTransactions(sqlite, SQLITE_BUSY_TIMEOUT_MS);
  }

  // When the connection's holder asked for it. A transaction's wait for the write lock counts from then: one queued
  // behind another's wait (the connection is one, taken in turn) does not wait its whole timeout again after it.
  private askedAt = 0;

  override async acquireConnection(): Promise<DatabaseConnection> {
    const asked = Date.now();
    const connection = await super.acquireConnection();
    this.askedAt = asked;
    return connection;
  }

  override async beginTransaction(_connection: DatabaseConnection): Promise<void> {
    // Waiting for another connection's lock without blocking the thread (sqlite-begin.ts).
    await beginImmediate(this.transactions, Math.max(0, this.askedAt + SQLITE_BUSY_TIMEOUT_MS - Date.now()));
  }

  override async commitTransaction(_connection: DatabaseConnection): Promise<void> {
    this.transactions.commit();
  }

  override async rollbackTransaction(_connection: DatabaseConnection): Promise<void> {
    this.transactions.rollback();
  }
}

/** Where the store reports what it noticed about its connections and files. */
export interface StoreEvents {
  readonly onConnectionError?: (err: Error) => void;
  readonly onWarning?: (message: string) => void;
}

/** The configured store: PostgreSQL with DATABASE_URL, else the embedded default, SQLite in the data directory. */
export function storeOptionsFor(
  config: { dataDir: string; databaseUrl: string | null; dbTimeouts?: PostgresTimeouts },
  events: StoreEvents = {},
): StoreOptions {
  // Every command opens its store through here: the data directory (the database, or the keys beside a
  // PostgreSQL store) is checked once, before anything in it is read or created.
  const groupWritable = checkDataDirMode(config.dataDir);
  if (groupWritable) events.onWarning?.(groupWritable);
  if (config.databaseUrl) {
    return {
      engine: "postgres",
      url: config.databaseUrl,
      ...(config.dbTimeouts ? { timeouts: config.dbTimeouts } : {}),
      ...(events.onConnectionError ? { onConnectionError: events.onConnectionError } : {}),
    };
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  return {
    engine: "sqlite",
    file: join(config.dataDir, "hcs.sqlite"),
    ...(events.onWarning ? { onWarning: events.onWarning } : {}),
  };
}
