import { createHash } from "node:crypto";
import { ReputationSnapshotSchema } from "@hcs/protocol";
import { z } from "zod";
import { buildAgentCard } from "../../a2a/agent-card.js";
import type { AppDeps } from "../../app-deps.js";
import type { HcsContext } from "../../http/state.js";
import { computeReputation } from "../../services/reputation.js";
import { ttlMemo } from "../../util/ttl-memo.js";
import { defineRoute, type RouteDef } from "../route.js";

const REPUTATION_TTL_MS = 10_000;
const reputationCaches = new WeakMap<AppDeps, () => Promise<unknown>>();

/** Serves a cacheable document with a strong ETag; 304 when the client already has it. */
function serveCached(ctx: HcsContext, body: string, etag: string, contentType: string, maxAge: number): void {
  ctx.set("ETag", etag);
  ctx.set("Cache-Control", `public, max-age=${maxAge}`);
  ctx.type = contentType;
  if (
    ctx
      .get("If-None-Match")
      .split(",")
      .map((s) => s.trim())
      .includes(etag)
  ) {
    ctx.status = 304;
    return;
  }
  ctx.body = body;
}

const etagOf = (body: string) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;

interface Served {
  readonly body: string;
  readonly etag: string;
}
const cards = new WeakMap<AppDeps, Served>();
const openApis = new WeakMap<AppDeps, Promise<Served>>();

/** The agent card, built once per app (it depends only on routes and configuration). */
export function agentCardDocument(deps: AppDeps, routes: () => readonly RouteDef[]): Served {
  let served = cards.get(deps);
  if (!served) {
    const body = JSON.stringify(
      buildAgentCard(routes(), { publicUrl: deps.config.publicUrl, version: deps.version }),
      null,
      2,
    );
    served = { body, etag: etagOf(body) };
    cards.set(deps, served);
  }
  return served;
}

/** The OpenAPI document, built once per app on first request (its generator is loaded only then). */
export function openApiDocument(deps: AppDeps, routes: () => readonly RouteDef[]): Promise<Served> {
  let served = openApis.get(deps);
  if (!served) {
    served = import("../../openapi/document.js").then(({ buildOpenApiDocument, openApiYaml }) => {
      const body = openApiYaml(
        buildOpenApiDocument(routes(), { version: deps.version, serverUrl: deps.config.publicUrl }),
      );
      return { body, etag: etagOf(body) };
    });
    openApis.set(deps, served);
  }
  return served;
}

export function discoveryRoutes(allRoutes: () => readonly RouteDef[]): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/.well-known/agent-card.json",
      group: "public",
      operationId: "getAgentCard",
      summary: "A2A agent card: interfaces, skills, authentication, pricing and rate limits",
      responses: { 200: { description: "The agent card (A2A v1.0)", schema: z.object({}).passthrough() } },
      errors: [],
      async handler(ctx, deps) {
        const d = agentCardDocument(deps, allRoutes);
        serveCached(ctx, d.body, d.etag, "application/json; charset=utf-8", 300);
      },
    }),
    defineRoute({
      method: "get",
      path: "/openapi-a2a.yaml",
      group: "public",
      operationId: "getOpenApi",
      summary: "OpenAPI 3.1 description of the agent-facing REST API",
      responses: {
        200: { description: "OpenAPI document (YAML)", schema: z.string(), contentType: "application/yaml" },
      },
      errors: [],
      async handler(ctx, deps) {
        const d = await openApiDocument(deps, allRoutes);
        serveCached(ctx, d.body, d.etag, "application/yaml; charset=utf-8", 300);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/reputation",
      group: "public",
      operationId: "getReputation",
      summary: "Public reputation snapshot with a SHA-256 integrity hash",
      description:
        "Totals computed from the service's store and process, cached for 10 seconds. `sha256` is the SHA-256 of the canonical JSON (sorted keys) of the other fields.",
      responses: { 200: { description: "The snapshot", schema: ReputationSnapshotSchema } },
      errors: [],
      async handler(ctx, deps) {
        let cached = reputationCaches.get(deps);
        if (!cached) {
          cached = ttlMemo(
            REPUTATION_TTL_MS,
            () => computeReputation(deps, { uptimeSeconds: deps.uptimeSeconds }),
            () => deps.now().getTime(),
          );
          reputationCaches.set(deps, cached);
        }
        ctx.set("Cache-Control", "public, max-age=10");
        ctx.body = await cached();
      },
    }),
  ];
}
