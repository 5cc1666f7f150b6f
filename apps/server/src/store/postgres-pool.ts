import type pgModule from "pg";

/** Time limits for every PostgreSQL call, so that no request or job can wait on the database forever. */
export interface PostgresTimeouts {
  /** Opening a connection, and waiting for a free one when the pool is busy. */
  readonly connectMs: number;
  /**
   * Server-side `statement_timeout` (the server cancels the statement and the connection stays usable). The
   * client gives up one second later (`query_timeout`), which only matters when the server itself no longer
   * answers — a blackholed network or a frozen host.
   */
  readonly statementMs: number;
}

export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = { connectMs: 3_000, statementMs: 5_000 };

export interface PostgresPoolOptions {
  readonly url: string;
  readonly schema?: string;
  readonly poolSize?: number;
  /** Omitted: no statement timeout (migrations, which may legitimately run long). */
  readonly timeouts?: PostgresTimeouts;
  /** Told about connections that died (backend terminated, failover, network); the pool replaces them. */
  readonly onConnectionError?: (err: Error) => void;
}

/** The part of pg's Pool that Kysely's PostgresDialect uses, plus counters for metrics. */
export interface PostgresPool {
  connect(): Promise<pgModule.PoolClient>;
  end(): Promise<void>;
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

type Client = pgModule.PoolClient;

/**
 * True for a query failure after which the connection cannot be trusted: anything the server did not report as
 * an SQL error (read timeout, reset, end of stream), and the server's own connection-level errors (class 08,
 * 57P01–57P03: shutdown, crash, not accepting connections). A constraint violation or a cancelled statement
 * (57014) leaves the connection in good order.
 */
function leavesConnectionUnusable(err: unknown): boolean {
  // Errors the server sent carry a severity and an SQLSTATE; socket and timeout errors do not.
  const { code, severity } = err as { code?: unknown; severity?: unknown };
  if (typeof severity !== "string" || typeof code !== "string") return true;
  // 25P03: the server ended the session of a transaction left idle too long.
  return code.startsWith("08") || code.startsWith("57P") || code === "25P03";
}

/**
 * A pg Pool that survives what a real network and a real database do to connections. pg emits 'error' on a client
 * whose backend went away (pg_terminate_backend, a failover, idle_session_timeout, pgbouncer recycling, a reset) —
 * on the pool for idle clients, on the client itself for one that is checked out — and an 'error' event without a
 * listener ends the process. Every client gets a permanent listener here, and a client that saw an error or a
 * client-side read timeout is destroyed at release instead of being handed to the next caller (after a read
 * timeout its protocol state is unknown: the late answer may still arrive).
 */
export function createPostgresPool(pg: typeof pgModule, options: PostgresPoolOptions): PostgresPool {
  const t = options.timeouts;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // Lets operators tell our sessions apart in pg_stat_activity; an application_name in the URL wins.
    fallback_application_name: "hcs-server",
    keepAlive: true,
    ...(t
      ? {
          connectionTimeoutMillis: t.connectMs,
          statement_timeout: t.statementMs,
          query_timeout: t.statementMs + 1_000,
          // A transaction left open (a crashed step between statements) must not hold locks forever.
          idle_in_transaction_session_timeout: Math.max(10_000, 2 * t.statementMs),
        }
      : {}),
    // Each test run (and each operator who wants it) can live in its own schema.
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  const report = (err: Error) => options.onConnectionError?.(err);
  const broken = new WeakSet<Client>();
  pool.on("error", report);
  pool.on("connect", (client: Client) => {
    client.on("error", (err: Error) => {
      broken.add(client);
      report(err);
    });
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const pending = query(...args);
      if (pending instanceof Promise)
        pending.catch((err: unknown) => {
          if (leavesConnectionUnusable(err)) broken.add(client);
        });
      return pending;
    };
  });
  return {
    async connect() {
      const client = await pool.connect();
      const release = client.release.bind(client);
      // Kysely releases without an error; pass one for a broken client so the pool destroys it.
      client.release = (err?: Error | boolean) =>
        release(err ?? (broken.has(client) ? new Error("connection failed while checked out") : undefined));
      return client;
    },
    end: () => pool.end(),
    get totalCount() {
      return pool.totalCount;
    },
    get idleCount() {
      return pool.idleCount;
    },
    get waitingCount() {
      return pool.waitingCount;
    },
  };
}
