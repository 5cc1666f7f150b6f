import { httpStatusFor } from "@hcs/protocol";
import { z } from "zod";
import { NOT_CONFIGURED } from "../../audit/anchor/anchor-status.js";
import { errorBody } from "../../http/error-body.js";
import { feedStates } from "../../services/intel/feed-status.js";
import { publicFeedSource } from "../../services/intel/public-feed-source.js";
import { definePublicRoute, type PublicRoute } from "../route.js";

/** How long readiness waits for the store before the instance is reported not ready. */
const READINESS_TIMEOUT_MS = 1_000;

/**
 * Liveness, readiness and Prometheus metrics for operators (not in the public API description). None of them is
 * audited or rate-limited, and only readiness touches the store (bounded to a second): a load balancer's probes
 * must get an answer whatever the database is doing.
 */
export const operationsRoutes: PublicRoute[] = [
  definePublicRoute({
    path: "/healthz",
    internal: true,
    id: "healthz",
    summary: "Liveness: the process answers",
    response: { description: "alive", schema: z.object({ status: z.literal("ok") }) },
    async handler(ctx) {
      ctx.body = { status: "ok" };
    },
  }),
  definePublicRoute({
    path: "/readyz",
    internal: true,
    id: "readyz",
    summary: "Readiness: the store answers within a second (503 unavailable otherwise)",
    response: {
      description: "ready",
      schema: z.object({
        status: z.literal("ready"),
        store: z.string(),
        details: z.object({
          anchoring: z.looseObject({ status: z.enum(["not_configured", "ok", "degraded"]) }),
          feeds: z.array(z.looseObject({ feed: z.string(), summary: z.string() })),
        }),
      }),
    },
    async handler(ctx, deps) {
      if (!(await deps.store.ping(READINESS_TIMEOUT_MS))) {
        ctx.set("Retry-After", "1");
        ctx.status = httpStatusFor("unavailable");
        ctx.body = errorBody(
          "unavailable",
          `the store did not answer within ${READINESS_TIMEOUT_MS} ms`,
          ctx.state.requestId,
          {
            store: deps.store.engine,
          },
        );
        return;
      }
      // Anchoring trouble shows here but never makes the instance unready: the log works without its anchors.
      const anchoring = deps.auditAnchoring?.status() ?? NOT_CONFIGURED;
      // So are stale or missing feeds ("KEV catalogue 2025.08.25, 41 days old"): lookups still answer from what is stored.
      // Where a feed was imported from shows without the server's paths (public-feed-source.ts).
      const feeds = (await feedStates(deps.store.db, deps.now()).catch(() => [])).map((f) => ({
        ...f,
        source: f.source === null ? null : publicFeedSource(f.source),
      }));
      ctx.body = { status: "ready", store: deps.store.engine, details: { anchoring, feeds } };
    },
  }),
  definePublicRoute({
    path: "/metrics",
    internal: true,
    id: "metrics",
    summary: "Prometheus metrics",
    response: { description: "metrics in the Prometheus text format", contentType: "text/plain" },
    async handler(ctx, deps) {
      ctx.type = deps.metrics.registry.contentType;
      ctx.body = await deps.metrics.registry.metrics();
    },
  }),
];
