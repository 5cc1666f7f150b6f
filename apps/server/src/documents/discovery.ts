import { createHash } from "node:crypto";
import { z } from "zod";
import { buildAgentCard } from "../a2a/agent-card.js";
import type { AppDeps } from "../app-deps.js";
import { ServiceError } from "../errors.js";
import type { HcsContext } from "../http/state.js";
import type { DeclarationList, DocumentedRoute } from "../openapi/document.js";
import { definePublicRoute, type PublicRoute } from "./route.js";

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
const cards = new WeakMap<AppDeps, Served & { readonly verifierKey: string | undefined }>();
const openApis = new WeakMap<AppDeps, Promise<Served>>();

/**
 * The agent card, built once per app (it depends only on the catalogue and configuration) and again when the audit
 * log's key was rotated.
 */
export function agentCardDocument(deps: AppDeps, catalogue: DeclarationList): Served {
  const verifierKey = deps.auditLogKey?.verifierKey;
  let served = cards.get(deps);
  if (!served || served.verifierKey !== verifierKey) {
    const body = JSON.stringify(
      buildAgentCard(catalogue.operations, {
        publicUrl: deps.config.publicUrl,
        version: deps.version,
        auditLogVerifierKey: verifierKey,
        contactEmail: deps.config.contactEmail,
      }),
      null,
      2,
    );
    served = { body, etag: etagOf(body), verifierKey };
    cards.set(deps, served);
  }
  return served;
}

/** The OpenAPI document, built once per app on first request (its generator is loaded only then). */
export function openApiDocument(
  deps: AppDeps,
  catalogue: DeclarationList,
  routes: () => readonly DocumentedRoute[],
): Promise<Served> {
  let served = openApis.get(deps);
  if (!served) {
    served = import("../openapi/document.js").then(({ buildOpenApiDocument, openApiYaml }) => {
      const body = openApiYaml(
        buildOpenApiDocument(catalogue, routes(), { version: deps.version, serverUrl: deps.config.publicUrl }),
      );
      return { body, etag: etagOf(body) };
    });
    openApis.set(deps, served);
  }
  return served;
}

/** The discovery documents of a catalogue; `routes` are all the public routes served beside it (for OpenAPI). */
export function discoveryRoutes(catalogue: DeclarationList, routes: () => readonly DocumentedRoute[]): PublicRoute[] {
  return [
    definePublicRoute({
      path: "/.well-known/agent-card.json",
      id: "getAgentCard",
      summary: "A2A agent card: interfaces, skills, authentication, pricing and rate limits",
      response: { description: "The agent card (A2A v1.0)", schema: z.object({}).passthrough() },
      async handler(ctx, deps) {
        const d = agentCardDocument(deps, catalogue);
        serveCached(ctx, d.body, d.etag, "application/json; charset=utf-8", 300);
      },
    }),
    definePublicRoute({
      path: "/.well-known/hcs-audit-log-key",
      id: "getAuditLogKey",
      summary: "The audit log's verifier key (C2SP signed-note), to check its signed checkpoints",
      response: {
        description: "`<origin>+<key hash>+<base64 Ed25519 key>`, one line",
        schema: z.string(),
        contentType: "text/plain",
      },
      async handler(ctx, deps) {
        if (!deps.auditLogKey) throw new ServiceError("not_found", "this process signs no audit checkpoints");
        const body = `${deps.auditLogKey.verifierKey}\n`;
        serveCached(ctx, body, etagOf(body), "text/plain; charset=utf-8", 300);
      },
    }),
    definePublicRoute({
      path: "/openapi-a2a.yaml",
      id: "getOpenApi",
      summary: "OpenAPI 3.1 description of the agent-facing REST API",
      response: { description: "OpenAPI document (YAML)", schema: z.string(), contentType: "application/yaml" },
      async handler(ctx, deps) {
        const d = await openApiDocument(deps, catalogue, routes);
        serveCached(ctx, d.body, d.etag, "application/yaml; charset=utf-8", 300);
      },
    }),
  ];
}
