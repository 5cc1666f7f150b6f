import type { Logger } from "pino";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { HcsContext, HcsMiddleware } from "./state.js";

export interface Metrics {
  readonly registry: Registry;
  readonly requests: Counter<"method" | "route" | "status">;
  readonly duration: Histogram<"method" | "route">;
  /** Requests without credentials that were refused: counted here instead of written to the audit trail. */
  readonly anonymousRefusals: Counter<"code">;
  /** JSON-RPC notifications received and not run (rpc/endpoint.ts), by method ("(unknown)" for others). */
  readonly rpcNotificationsNotRun: Counter<"method">;
  /**
   * Refused portal sign-in attempts by step (password, second_factor) and code: counted here, not audited one by
   * one (docs/portal.md, "Audit"); only a lock-out starting is an audit event.
   */
  readonly signInRefusals: Counter<"step" | "code">;
  /** Connections closed before serving anything: over the per-address cap, or no TLS handshake in time. */
  readonly connectionsRefused: Counter<"reason">;
}

/** A Prometheus registry of its own per app (tests create several apps in one process). */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "hcs_" });
  return {
    registry,
    requests: new Counter({
      name: "hcs_http_requests_total",
      help: "HTTP requests by method, route pattern and status",
      labelNames: ["method", "route", "status"],
      registers: [registry],
    }),
    duration: new Histogram({
      name: "hcs_http_request_duration_seconds",
      help: "HTTP request duration by method and route pattern",
      labelNames: ["method", "route"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    anonymousRefusals: new Counter({
      name: "hcs_anonymous_refusals_total",
      help: "Refused requests that presented no valid credentials (not audited), by error code",
      labelNames: ["code"],
      registers: [registry],
    }),
    rpcNotificationsNotRun: new Counter({
      name: "hcs_jsonrpc_notifications_not_run_total",
      help: "JSON-RPC notifications (requests without an id) received and not run: nothing answered, charged or written",
      labelNames: ["method"],
      registers: [registry],
    }),
    signInRefusals: new Counter({
      name: "hcs_portal_sign_in_refusals_total",
      help: "Refused portal sign-in attempts (not audited), by step and code",
      labelNames: ["step", "code"],
      registers: [registry],
    }),
    connectionsRefused: new Counter({
      name: "hcs_connections_refused_total",
      help: "Connections closed before serving anything, by reason (per_address_limit, tls_handshake_timeout)",
      labelNames: ["reason"],
      registers: [registry],
    }),
  };
}

/**
 * Pool gauges of a PostgreSQL store, read when Prometheus scrapes (nothing to read for the embedded store).
 * Reading them never touches the database, so /metrics answers even when the database does not.
 */
export function registerStoreGauges(
  metrics: Metrics,
  poolStats: () => { total: number; idle: number; waiting: number } | null,
): void {
  const gauge = (name: string, help: string, pick: (s: { total: number; idle: number; waiting: number }) => number) =>
    new Gauge({
      name,
      help,
      registers: [metrics.registry],
      collect() {
        const stats = poolStats();
        if (stats) this.set(pick(stats));
      },
    });
  gauge("hcs_db_pool_connections", "PostgreSQL connections open in this process", (s) => s.total);
  gauge("hcs_db_pool_idle_connections", "PostgreSQL connections open and idle", (s) => s.idle);
  gauge("hcs_db_pool_waiting_requests", "Callers waiting for a PostgreSQL connection", (s) => s.waiting);
}

/**
 * Counts, times and logs every request — by route pattern, never by raw path, which would explode the label
 * space — and counts refused requests without valid credentials (not audited) by error code. The log line carries
 * the request id and key id, never a key.
 */
export function observeRequests(metrics: Metrics, logger: Logger): HcsMiddleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      recordRequest(metrics, logger, ctx, started);
    }
  };
}

/**
 * observeRequests' record of a request once the pipeline is done with it (also used where requests skip Koa's
 * chain): its duration and count by route pattern, an anonymous refusal's code, the request log line.
 * `started`: process.hrtime.bigint() when the request arrived.
 */
export function recordRequest(metrics: Metrics, logger: Logger, ctx: HcsContext, started: bigint): void {
  const elapsedNs = Number(process.hrtime.bigint() - started);
  // The template the serving route recorded (http/route-template.ts, http/hot-routes.ts); none for a request no
  // route took (404, 405) or one refused before routing.
  const route = ctx.state.route ?? "(unmatched)";
  metrics.duration.observe({ method: ctx.method, route }, elapsedNs / 1e9);
  metrics.requests.inc({ method: ctx.method, route, status: String(ctx.status) });
  const caller = ctx.state.caller;
  if (caller === null && ctx.status >= 400) {
    const code = (ctx.body as { error?: { code?: unknown } } | null)?.error?.code;
    metrics.anonymousRefusals.inc({ code: typeof code === "string" ? code : String(ctx.status) });
  }
  // The line's object is built only when it will be written (servers under load log at warn).
  if (logger.isLevelEnabled("info")) {
    logger.info(
      {
        request_id: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round(elapsedNs / 1e5) / 10,
        key_id: caller?.keyId,
      },
      "request",
    );
  }
}
