import type { AppDeps } from "../app-deps.js";
import type { HcsContext } from "../http/state.js";
import type { DocumentedRoute } from "../openapi/document.js";

/**
 * A public document or operator endpoint served over HTTP only (the agent card, the OpenAPI document, health,
 * readiness, metrics, downloads): no credentials, no limits, nothing to invoke. Everything a caller can *do* is an
 * operation of the catalogue; these are served beside it (documents/index.ts).
 */
export interface PublicRoute extends DocumentedRoute {
  handler(ctx: HcsContext, deps: AppDeps): Promise<void>;
}

/** Keeps literal route declarations typed. */
export function definePublicRoute(def: PublicRoute): PublicRoute {
  return def;
}
