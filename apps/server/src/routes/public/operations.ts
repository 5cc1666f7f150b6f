import { sql } from "kysely";
import { z } from "zod";
import { ServiceError } from "../../errors.js";
import { defineRoute, type RouteDef } from "../route.js";

/** Liveness, readiness and Prometheus metrics for operators (not in the public API description). */
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
    summary: "Readiness: the store answers",
    responses: { 200: { description: "ready", schema: z.object({ status: z.literal("ready"), store: z.string() }) } },
    errors: ["unavailable"],
    async handler(ctx, deps) {
      try {
        await sql`select 1`.execute(deps.store.db);
      } catch {
        throw new ServiceError("unavailable", "the store is not reachable");
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
