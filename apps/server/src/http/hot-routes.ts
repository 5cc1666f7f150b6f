import type { IncomingMessage, ServerResponse } from "node:http";
import type Koa from "koa";
import type { Logger } from "pino";
import type { TrustProxy } from "./client-address.js";
import { answerError } from "./errors.js";
import { type Metrics, recordRequest } from "./metrics.js";
import { beginRequest } from "./request-context.js";
import { respond } from "./respond.js";
import type { HcsContext, HcsState } from "./state.js";

/** A route dispatched ahead of the router: a path of static segments, the last one optionally a `:parameter`. */
export interface HotRoute {
  readonly method: "get" | "post";
  readonly path: string;
  readonly handler: (ctx: HcsContext) => Promise<void>;
}

interface Compiled {
  readonly path: string;
  /** The methods served: a GET route serves HEAD too, as the router does. */
  readonly methods: ReadonlySet<string>;
  readonly param: string | null;
  readonly handler: (ctx: HcsContext) => Promise<void>;
}

const segments = (path: string) => path.split("/");
const isParam = (segment: string) => segment.startsWith(":");
/** Path syntax beyond static segments and `:parameters` (wildcards, optional parts, custom expressions). */
const hasOtherSyntax = (pattern: string) => /[*?(){}]/.test(pattern);

/**
 * Whether a request path could match both patterns: the same number of segments, each pair equal or one of them a
 * parameter. A pattern with any other syntax (a wildcard, an optional part, a custom expression) counts as
 * overlapping everything.
 */
export function patternsOverlap(a: string, b: string): boolean {
  if (hasOtherSyntax(a) || hasOtherSyntax(b)) return true;
  const sa = segments(a);
  const sb = segments(b);
  if (sa.length !== sb.length) return false;
  return sa.every((s, i) => s === sb[i] || isParam(s) || isParam(sb[i]!));
}

/** What a request served ahead of Koa's chain needs besides its route: the three steps every request goes through. */
export interface HotPipeline {
  /** The Koa app whose context the handlers get (its getters and setters, as for every other request). */
  readonly app: Koa<HcsState>;
  readonly trustProxy: TrustProxy;
  readonly metrics: Metrics;
  readonly logger: Logger;
}

/**
 * The routes every agent call takes — the REST grade lookup, the JSON-RPC endpoint — served ahead of Koa's request
 * handler and of the router (docs/performance.md#hot-routes-ahead-of-koa). Koa's chain for every other request
 * (request context, metrics and log, error mapper, portal, router) costs a promise and a closure per middleware,
 * and its request handler attaches response-finished listeners to every response (on-finished: 5.5 % of the bytes
 * the server allocated per lookup); @koa/router tests each request against every route's expression. Here the
 * same three steps run as one function around the handler: `beginRequest`, the handler with `answerError` for what
 * it throws, `recordRequest`, then Koa's own `respond` (respond.ts) — the answers, headers, metrics and log lines are
 * those of the chain. Only the plain form of a path is taken — no query string, its parameter neither empty, nor
 * percent-encoded, nor followed by a slash; everything else (a trailing slash, an encoded parameter, a query, any
 * other method) goes to Koa and the router, which answer it as they always have. Refuses at start-up a hot route
 * that another route could also match (`others`: every route's pattern), so the router would never have chosen
 * differently. Sets what the router and a route set that the rest of the pipeline reads: the parameters (as the
 * router does), and the route's template the metrics are labelled with (`ctx.state.route`, as route-template.ts).
 *
 * Returns the request listener's first step: true when it took the request.
 */
export function hotRequests(
  routes: readonly HotRoute[],
  others: readonly string[],
  pipeline: HotPipeline,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const match = compileHotRoutes(routes, others);
  const { app, trustProxy, metrics, logger } = pipeline;
  // Koa's context reports what escapes to the app's 'error' listeners; app.callback() adds Koa's default one when
  // there is none, and so does this (an 'error' event without a listener would throw).
  if (app.listenerCount("error") === 0) app.on("error", (err: Error) => app.onerror(err));
  const serve = async (ctx: HcsContext, route: Compiled) => {
    const started = process.hrtime.bigint();
    beginRequest(ctx, trustProxy);
    // As a router route's own first step does (route-template.ts): the template the metrics are labelled with.
    ctx.state.route = route.path;
    try {
      await route.handler(ctx);
    } catch (err) {
      answerError(ctx, err, logger);
    }
    recordRequest(metrics, logger, ctx, started);
    respond(ctx);
  };
  return (req, res) => {
    const url = req.url ?? "";
    const found = match(req.method ?? "", url);
    if (!found) return false;
    const ctx = app.createContext(req, res) as HcsContext;
    // As Koa's request handler starts every response.
    res.statusCode = 404;
    (ctx as unknown as { params: Record<string, string> }).params =
      found.route.param === null ? {} : { [found.route.param]: found.value! };
    // What escapes the error mapper (a failure while answering) goes where Koa sends it: its default error answer.
    serve(ctx, found.route).catch((err: unknown) => ctx.onerror(err as Error));
    return true;
  };
}

/**
 * The route a request's method and URL take, if any (see hotRequests): a map lookup on the path, or on the path up
 * to its last slash for a route ending in a parameter.
 */
export function compileHotRoutes(
  routes: readonly HotRoute[],
  others: readonly string[],
): (method: string, url: string) => { route: Compiled; value: string | null } | null {
  const exact = new Map<string, Compiled>();
  const byPrefix = new Map<string, Compiled>();
  for (const route of routes) {
    const parts = segments(route.path);
    const last = parts.at(-1)!;
    if (!route.path.startsWith("/") || parts.slice(0, -1).some(isParam) || hasOtherSyntax(route.path))
      throw new Error(`hot route ${route.path}: only static segments and one trailing parameter are supported`);
    const clashes = others.filter((p) => p !== route.path && patternsOverlap(p, route.path));
    if (clashes.length > 0) throw new Error(`hot route ${route.path} overlaps ${clashes.join(", ")}`);
    const compiled: Compiled = {
      path: route.path,
      methods: new Set(route.method === "get" ? ["GET", "HEAD"] : ["POST"]),
      param: isParam(last) ? last.slice(1) : null,
      handler: route.handler,
    };
    if (compiled.param === null) exact.set(route.path, compiled);
    else byPrefix.set(route.path.slice(0, route.path.length - last.length), compiled);
  }
  return (method, url) => {
    // Origin-form paths only: a query string, or an absolute-form or asterisk-form target, goes to the router.
    if (url.charCodeAt(0) !== 47 /* "/" */ || url.includes("?")) return null;
    let route = exact.get(url);
    let value: string | null = null;
    if (!route) {
      const slash = url.lastIndexOf("/");
      route = byPrefix.get(url.slice(0, slash + 1));
      value = url.slice(slash + 1);
      if (route && (value === "" || value.includes("%"))) route = undefined;
    }
    return route?.methods.has(method) ? { route, value } : null;
  };
}
