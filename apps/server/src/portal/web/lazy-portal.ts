import type { AppDeps } from "../../app-deps.js";
import type { HcsMiddleware } from "../../http/state.js";
import { isPortalPath } from "./portal-path.js";

/**
 * The customer portal, loaded on its first request: its pages and the report renderer it reaches bring their own
 * packages (preact, preact-render-to-string, hono, otpauth) that a deployment serving only the API and agents never
 * runs, resident in the serving process from start otherwise (docs/performance.md#memory).
 * The first portal request waits for the import; requests arriving meanwhile share it; a failed import is retried by
 * the next portal request.
 */
export function lazyPortalMiddleware(deps: AppDeps): HcsMiddleware {
  let portal: Promise<HcsMiddleware> | null = null;
  return async (ctx, next) => {
    if (!isPortalPath(ctx.path)) return next();
    portal ??= import("./portal-router.js").then(
      (m) => m.portalMiddleware(deps),
      (err: unknown) => {
        portal = null;
        throw err;
      },
    );
    return (await portal)(ctx, next);
  };
}
