import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { CREDIT_PRICES, ErrorBodySchema, httpStatusFor } from "@hcs/protocol";
import { stringify } from "yaml";
import type { RouteDef } from "../routes/route.js";

const RATE_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests allowed in the current window", schema: { type: "integer" as const } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer" as const } },
  "X-RateLimit-Reset": {
    description: "Unix epoch seconds when the window resets",
    schema: { type: "integer" as const },
  },
};

const toOpenApiPath = (koaPath: string) => koaPath.replace(/:([A-Za-z_]+)/g, "{$1}");

/**
 * The REST description served at /openapi-a2a.yaml: OpenAPI 3.1 generated from the same route declarations the
 * router mounts, with request and response schemas from @hcs/protocol. Group A and operator routes are left out.
 */
export function buildOpenApiDocument(
  routes: readonly RouteDef[],
  info: { version: string; serverUrl: string },
): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "ApiKey", {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "Group B API key (free tier: POST /v1/a2a/keys)",
  });
  for (const route of routes) {
    if (route.internal || route.group === "a") continue;
    const isGroupB = route.group === "b" || route.group === "b-open";
    const responses: Record<string, object> = {};
    for (const [status, r] of Object.entries(route.responses)) {
      responses[status] = {
        description: r.description,
        ...(isGroupB ? { headers: RATE_HEADERS } : {}),
        ...(r.schema ? { content: { [r.contentType ?? "application/json"]: { schema: r.schema } } } : {}),
      };
    }
    const byStatus = new Map<number, string[]>();
    for (const code of route.errors)
      byStatus.set(httpStatusFor(code), [...(byStatus.get(httpStatusFor(code)) ?? []), code]);
    for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
      responses[String(status)] = {
        description: `Error: ${codes.join(", ")}`,
        ...(isGroupB ? { headers: RATE_HEADERS } : {}),
        content: { "application/json": { schema: ErrorBodySchema } },
      };
    }
    const price = route.price ? ` Costs ${CREDIT_PRICES[route.price]} credits.` : "";
    registry.registerPath({
      method: route.method,
      path: toOpenApiPath(route.path),
      operationId: route.operationId,
      summary: route.summary,
      description: `${route.description ?? route.summary}${route.description?.includes("credits") ? "" : price}`,
      tags: [isGroupB ? "Group B (agents)" : "Discovery"],
      ...(route.group === "b" ? { security: [{ ApiKey: [] }] } : {}),
      request: {
        ...(route.params ? { params: route.params } : {}),
        ...(route.body ? { body: { required: true, content: { "application/json": { schema: route.body } } } } : {}),
      },
      responses,
    });
  }
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: "3.1.0",
    info: {
      title: "HCS — Healthcare Compliance Service, agent API (Group B)",
      version: info.version,
      description:
        "HIPAA compliance grades, scans and findings keyed by NPI. Authenticate with X-API-Key. Every Group B response " +
        "carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset. Errors use one body: " +
        "{ error: { code, message, request_id, details? } }.",
    },
    servers: [{ url: info.serverUrl }],
  });
}

export function openApiYaml(document: object): string {
  return stringify(document, { aliasDuplicateObjects: false });
}
