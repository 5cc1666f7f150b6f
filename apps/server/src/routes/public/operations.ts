import { z } from "zod";
import { ServiceError } from "../../errors.js";
import { defineRoute, type RouteDef } from "../route.js";

/** How long readiness waits for the store before the instance is reported not ready. */
const READINESS_TIMEOUT_MS = 1_000;

/**
 * Liveness, readiness and Prometheus metrics for operators (not in the public API description). None of them is
 * audited or rate-limited, and only readiness touches the store (bounded to a second): a load balancer's probes
 * must get an answer whatever the database is doing.
 */
export const operationsRoutes: RouteDef[] = [
  defineRoute({
    method: "get",
    path: "/healthz",
    group: "public",
    internal: true,
    operationId: "healthz",
    summary: "Liveness: the process answers",
    responses: { 200: { description: "alive", schema: z.object({ status: z.literal("ok") }) } },
    errors: [],
    async handler(ctx) {
      ctx.body = { status: "ok" };
    },
  }),
  defineRoute({
    method: "get",
    path: "/readyz",
    group: "public",
    internal: true,
    operationId: "readyz",
    summary: "Readiness: the store answers within a second",
    responses: { 200: { description: "ready", schema: z.object({ status: z.literal("ready"), store: z.string() }) } },
    errors: ["unavailable"],
    async handler(ctx, deps) {
      if (!(await deps.store.ping(READINESS_TIMEOUT_MS))) {
        ctx.set("Retry-After", "1");
        throw new ServiceError("unavailable", `the store did not answer within ${READINESS_TIMEOUT_MS} ms`, {
          store: deps.store.engine,
        });
      }
      ctx.body = { status: "ready", store: deps.store.engine };
    },
  }),
  defineRoute({
    method: "get",
    path: "/metrics",
    group: "public",
    internal: true,
    operationId: "metrics",
    summary: "Prometheus metrics",
    responses: { 200: { description: "metrics in the Prometheus text format", contentType: "text/plain" } },
    errors: [],
    async handler(ctx, deps) {
      ctx.type = deps.metrics.registry.contentType;
      ctx.body = await deps.metrics.registry.metrics();
    },
  }),
];
