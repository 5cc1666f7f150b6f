import type { HcsContext, HcsMiddleware } from "./state.js";

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

/**
 * The routes every agent call takes — the REST grade lookup, the JSON-RPC endpoint — dispatched without the
 * router: @koa/router tests each request against every route's expression (56 here), reads the Host header, and
 * builds a middleware chain and a composed function per request, ~6 % of the serving thread's time per lookup
 * (docs/performance.md "Issue 14, stop 29"). Only the plain form of a path is taken here — its parameter neither
 * empty, nor percent-encoded, nor followed by a slash; everything else (a trailing slash, an encoded parameter, any
 * other method) goes on to the router, which answers it as it always has. Refuses at start-up a hot route that
 * another route could also match (`others`: every route's pattern), so the router would never have chosen
 * differently. Sets what the router sets that the rest of the pipeline reads: the parameters, and the matched
 * pattern the metrics are labelled with.
 */
export function hotRoutes(routes: readonly HotRoute[], others: readonly string[]): HcsMiddleware {
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
  return (ctx, next) => {
    const path = ctx.path;
    let route = exact.get(path);
    let value: string | null = null;
    if (!route) {
      const slash = path.lastIndexOf("/");
      route = byPrefix.get(path.slice(0, slash + 1));
      value = path.slice(slash + 1);
      if (route && (value === "" || value.includes("%"))) route = undefined;
    }
    if (!route?.methods.has(ctx.method)) return next();
    const c = ctx as unknown as { params: Record<string, string>; _matchedRoute: string };
    c.params = route.param === null ? {} : { [route.param]: value! };
    c._matchedRoute = route.path;
    return route.handler(ctx);
  };
}
