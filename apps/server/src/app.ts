import type { IncomingMessage, ServerResponse } from "node:http";
import Router from "@koa/router";
import Koa from "koa";
import { a2aMethods } from "./a2a/methods.js";
import type { AppDeps } from "./app-deps.js";
import { CATALOGUE } from "./catalogue/index.js";
import { publicRoutesOf } from "./documents/index.js";
import { errorMapper } from "./http/errors.js";
import { type HotRoute, hotRequests } from "./http/hot-routes.js";
import { observeRequests } from "./http/metrics.js";
import { requestContext } from "./http/request-context.js";
import { requestGuard, restHandler } from "./http/rest-binding.js";
import { templatedRoutes } from "./http/route-template.js";
import type { HcsContext, HcsState } from "./http/state.js";
import { unmatchedRequests } from "./http/unmatched.js";
import { mcpEndpoint } from "./mcp/http-endpoint.js";
import type { Catalogue } from "./operations/operation.js";
import { lazyPortalMiddleware } from "./portal/web/lazy-portal.js";
import { rpcEndpoint } from "./rpc/endpoint.js";
import { methodTable } from "./rpc/methods.js";

/** The server's request listener (tests start it over real HTTPS on port 0). */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Builds the request listener without listening. Three things run for every request — its context (id, client
 * address), metrics and the request log, the error mapper — and then the route's own handler, composed once here
 * from its declaration: an operation's REST twin reads the key its group uses and invokes the operation (authorize,
 * count, validate, run, settle: see operations/invoke.ts); a public document is served as is. The routes every agent
 * call takes (the REST grade lookup, the JSON-RPC endpoint) are found by a map lookup ahead of Koa's chain and the
 * router (http/hot-routes.ts), with the same handlers and the same three steps; everything else goes through Koa. A
 * path no route serves gets 404 or 405, counted and with rate-limit headers under /v1.
 */
export function createRequestListener(deps: AppDeps, catalogue: Catalogue = CATALOGUE): RequestListener {
  // Koa's own proxy handling believes the leftmost X-Forwarded-For entry (client-chosen); the request context
  // resolves the address from trusted hops only.
  const app = new Koa<HcsState>({ proxy: false });
  // Errors are answered by errorMapper; anything reaching Koa's own handler is a socket-level problem.
  app.on("error", (err: Error) => deps.logger.debug({ err }, "connection error"));

  app.use(requestContext(deps.config.trustProxy));
  app.use(observeRequests(deps.metrics, deps.logger));
  app.use(errorMapper(deps.logger));

  const router = new Router<HcsState>({ sensitive: true });
  // Every route names its path template for the metrics as it starts (http/route-template.ts).
  const routes = templatedRoutes(router);
  const hot: HotRoute[] = [];
  for (const operation of catalogue.operations) {
    if (!operation.rest) continue;
    const handler = restHandler(deps, operation);
    routes[operation.rest.method](operation.rest.path, (ctx) => handler(ctx as unknown as HcsContext));
    // Declared hot (the metered grade lookup): dispatched ahead of the router, with the JSON-RPC endpoint.
    if (operation.hot && (operation.rest.method === "get" || operation.rest.method === "post"))
      hot.push({ method: operation.rest.method, path: operation.rest.path, handler });
  }
  for (const route of publicRoutesOf(catalogue)) {
    routes.get(route.path, async (ctx) => {
      requestGuard(ctx as unknown as HcsContext);
      await route.handler(ctx as unknown as HcsContext, deps);
    });
  }
  // The agent protocols' endpoint: JSON-RPC 2.0 over the catalogue's agent methods, and A2A v1.0's methods.
  const rpc = rpcEndpoint(deps, methodTable(catalogue.operations, a2aMethods(catalogue.operations)));
  routes.post("/api/a2a", (ctx) => rpc(ctx as unknown as HcsContext));
  hot.push({ method: "post", path: "/api/a2a", handler: rpc });
  // MCP Streamable HTTP (stateless): POST; every other method answers 405 from the endpoint itself.
  const mcp = mcpEndpoint(deps, catalogue.operations);
  routes.all("/mcp", (ctx) => mcp(ctx as unknown as HcsContext));
  // The customer portal (docs/portal.md): its own pages, headers and errors under /portal, loaded on first use.
  app.use(lazyPortalMiddleware(deps));
  app.use(router.routes());
  app.use(unmatchedRequests(deps, router));
  // The routes every agent call takes, served ahead of Koa's chain and the router (same answers: see hot-routes.ts).
  const takeHot = hotRequests(
    hot,
    router.stack.map((layer) => (typeof layer.path === "string" ? layer.path : "(expression)")),
    { app, trustProxy: deps.config.trustProxy, metrics: deps.metrics, logger: deps.logger },
  );
  const koa = app.callback();
  return (req, res) => {
    if (!takeHot(req, res)) void koa(req, res);
  };
}
