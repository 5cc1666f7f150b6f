import type { DeclarationList } from "../openapi/document.js";
import { discoveryRoutes } from "./discovery.js";
import { downloadRoutes } from "./downloads.js";
import { healthRoutes } from "./health.js";
import type { PublicRoute } from "./route.js";

const served = new WeakMap<DeclarationList, readonly PublicRoute[]>();

/**
 * What is served beside a catalogue over HTTP only: health, readiness and metrics; the documents describing the
 * catalogue (the agent card, the OpenAPI document, the audit log's verifier key); the scanner package and the CA.
 * Documents *of* the catalogue, not entries in it: the catalogue imports none of them. Fails on a route that would
 * shadow another or an operation's REST twin.
 */
export function publicRoutesOf(catalogue: DeclarationList): readonly PublicRoute[] {
  let routes = served.get(catalogue);
  if (!routes) {
    const all: PublicRoute[] = [...healthRoutes, ...discoveryRoutes(catalogue, () => all), ...downloadRoutes];
    assertNoShadowing(catalogue, all);
    routes = all;
    served.set(catalogue, routes);
  }
  return routes;
}

function assertNoShadowing(catalogue: DeclarationList, routes: readonly PublicRoute[]): void {
  const seen = new Set<string>();
  for (const op of catalogue.operations) {
    seen.add(`id ${op.id}`);
    if (op.rest) seen.add(`route ${op.rest.method.toUpperCase()} ${op.rest.path}`);
  }
  for (const r of routes)
    for (const key of [`id ${r.id}`, `route GET ${r.path}`]) {
      if (seen.has(key)) throw new Error(`public routes: ${key} is declared twice`);
      seen.add(key);
    }
}
