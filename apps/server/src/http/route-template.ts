import type { default as Router, RouterMiddleware } from "@koa/router";
import type { HcsMiddleware, HcsState } from "./state.js";

/** The router methods our routes are declared with. */
export type RouteMethod = "get" | "post" | "put" | "patch" | "delete" | "all";

/** Declares routes on a router, each named by its path template for the metrics (see `templatedRoutes`). */
export type Routes = {
  readonly [M in RouteMethod]: (path: string, ...middleware: RouterMiddleware<HcsState>[]) => void;
};

/**
 * The route's own first step: records its path template in `ctx.state.route`, which the metrics label requests
 * with (http/metrics.ts). Ours, not the router's: @koa/router keeps the matched pattern in private context fields
 * that an upgrade may rename or stop setting without a word.
 */
export function routeTemplate(path: string): HcsMiddleware {
  return (ctx, next) => {
    ctx.state.route = path;
    return next();
  };
}

/**
 * The router's registration methods, each route preceded by `routeTemplate(path)`: every route declared through
 * these carries its template to the metrics, as the hot routes do (http/hot-routes.ts).
 */
export function templatedRoutes(router: Router<HcsState>): Routes {
  const on =
    (method: RouteMethod) =>
    (path: string, ...middleware: RouterMiddleware<HcsState>[]) => {
      router[method](path, routeTemplate(path) as RouterMiddleware<HcsState>, ...middleware);
    };
  return { get: on("get"), post: on("post"), put: on("put"), patch: on("patch"), delete: on("delete"), all: on("all") };
}
