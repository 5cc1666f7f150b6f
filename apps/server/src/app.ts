import Router from "@koa/router";
import Koa from "koa";
import type { AppDeps } from "./app-deps.js";
import { auditTrail } from "./http/audit.js";
import { identifyCaller, requireCaller } from "./http/auth.js";
import { bodyLimit } from "./http/body.js";
import { errorMapper } from "./http/errors.js";
import { httpsOnly } from "./http/https-only.js";
import { requestMetrics } from "./http/metrics.js";
import { groupAPolicy, groupBPolicy, rateLimit } from "./http/rate-limit.js";
import { requestContext } from "./http/request-context.js";
import type { HcsContext, HcsMiddleware, HcsState } from "./http/state.js";
import { ROUTES } from "./routes/index.js";
import type { RouteDef } from "./routes/route.js";

const isGroupB = (path: string) => path === "/v1/a2a" || path.startsWith("/v1/a2a/");
const isGroupA = (path: string) => !isGroupB(path) && (path === "/v1" || path.startsWith("/v1/"));

function chain(...middleware: HcsMiddleware[]): HcsMiddleware {
  return (ctx, next) => {
    const run = (i: number): Promise<unknown> =>
      i === middleware.length ? next() : middleware[i]!(ctx, () => run(i + 1));
    return run(0);
  };
}

/**
 * Builds the Koa app without listening (tests start it over real HTTPS on port 0). Pipeline, outermost first:
 * request context (id, client address) → metrics → audit trail → error mapper → per-group auth and rate limit
 * (so every /v1/a2a response carries rate-limit headers, unmatched paths and refusals below included) →
 * https-only → body limit → routes.
 */
export function createApp(deps: AppDeps, routes: readonly RouteDef[] = ROUTES): Koa<HcsState> {
  // Koa's own proxy handling believes the leftmost X-Forwarded-For entry (client-chosen); the request context
  // resolves the address from trusted hops only.
  const app = new Koa<HcsState>({ proxy: false });
  // Errors are answered by errorMapper; anything reaching Koa's own handler is a socket-level problem.
  app.on("error", (err: Error) => deps.logger.debug({ err }, "connection error"));

  const groupB = chain(identifyCaller(deps, "b"), rateLimit(deps, groupBPolicy));
  const groupA = chain(identifyCaller(deps, "a"), rateLimit(deps, groupAPolicy));

  app.use(requestContext(deps.config.trustProxy));
  app.use(requestMetrics(deps.metrics));
  app.use(auditTrail(deps, deps.logger));
  app.use(errorMapper(deps.logger));
  app.use((ctx: HcsContext, next) =>
    isGroupB(ctx.path) ? groupB(ctx, next) : isGroupA(ctx.path) ? groupA(ctx, next) : next(),
  );
  app.use(httpsOnly());
  app.use(bodyLimit());

  const router = new Router<HcsState>({ sensitive: true });
  for (const route of routes) {
    const guard: HcsMiddleware[] =
      route.group === "b" ? [requireCaller("b")] : route.group === "a" ? [requireCaller("a")] : [];
    const handler: HcsMiddleware = (ctx) => route.handler(ctx, deps);
    router[route.method](route.path, ...(guard as never[]), handler as never);
  }
  app.use(router.routes());
  // Not throwing lets the router set Allow; the error mapper then writes the 405/501 body.
  app.use(router.allowedMethods());
  return app;
}
