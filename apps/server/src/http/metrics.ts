import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import type { HcsMiddleware } from "./state.js";

export interface Metrics {
  readonly registry: Registry;
  readonly requests: Counter<"method" | "route" | "status">;
  readonly duration: Histogram<"method" | "route">;
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
  };
}

/** Counts and times every request by route pattern (never by raw path, which would explode the label space). */
export function requestMetrics(metrics: Metrics): HcsMiddleware {
  return async (ctx, next) => {
    const end = metrics.duration.startTimer();
    try {
      await next();
    } finally {
      const matched = (ctx as unknown as { _matchedRoute?: string | RegExp })._matchedRoute;
      const route = typeof matched === "string" ? matched : "(unmatched)";
      end({ method: ctx.method, route });
      metrics.requests.inc({ method: ctx.method, route, status: String(ctx.status) });
    }
  };
}
