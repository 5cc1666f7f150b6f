import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { ErrorBodySchema, type ErrorCode, httpStatusFor } from "@hcs/protocol";
import { stringify } from "yaml";
import { z } from "zod";
import { describedWithPrice, pipelineErrors } from "../operations/describe.js";
import type { OperationDeclaration } from "../operations/operation.js";

/** The declarations the document describes (a bound catalogue is one). */
export interface DeclarationList {
  readonly operations: readonly OperationDeclaration[];
}

const RATE_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests allowed in the current window", schema: { type: "integer" as const } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer" as const } },
  "X-RateLimit-Reset": {
    description: "Unix epoch seconds when the window resets",
    schema: { type: "integer" as const },
  },
};

const toOpenApiPath = (koaPath: string) => koaPath.replace(/:([A-Za-z_]+)/g, "{$1}");
const pathFields = (koaPath: string) => [...koaPath.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);

/**
 * An object schema of the fields of `schema` that `keep` selects, or null when there are none. Built from the
 * shape (zod refuses .pick/.omit on schemas with refinements, which describe whole inputs, not parameters).
 */
function fieldsOf(schema: z.ZodType, keep: (name: string) => boolean): z.ZodObject | null {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) return null;
  const picked = Object.entries(shape).filter(([name]) => keep(name));
  return picked.length > 0 ? z.object(Object.fromEntries(picked)) : null;
}

/**
 * Path parameters are always present (a route without the segment does not match), even when the operation's
 * input makes the field optional for its other transports (hipaa.breach: `npi`, or `name` + `state`).
 */
function requiredFields(params: z.ZodObject | null): z.ZodObject | null {
  if (!params) return null;
  return z.object(
    Object.fromEntries(
      Object.entries(params.shape).map(([name, field]) => [
        name,
        field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType) : field,
      ]),
    ),
  );
}

/** One response per HTTP status of `codes`, each naming its codes, with the error body (docs/api.md#errors). */
function errorResponses(codes: readonly ErrorCode[], headers: object): Record<string, object> {
  const byStatus = new Map<number, string[]>();
  for (const code of new Set(codes))
    byStatus.set(httpStatusFor(code), [...(byStatus.get(httpStatusFor(code)) ?? []), code]);
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          description: `Error: ${list.join(", ")}`,
          ...headers,
          content: { "application/json": { schema: ErrorBodySchema } },
        },
      ]),
  );
}

/**
 * A document or operator endpoint served over HTTP only, as the REST description lists it (documents/route.ts adds
 * its handler): no credentials, no limits, nothing to invoke.
 */
export interface DocumentedRoute {
  readonly path: string;
  readonly id: string;
  readonly summary: string;
  readonly description?: string;
  readonly response: { readonly description: string; readonly schema?: z.ZodType; readonly contentType?: string };
  /** Errors it may answer instead (with the error body). */
  readonly errors?: readonly ErrorCode[];
  /** Left out of the OpenAPI document (operator endpoints). */
  readonly internal?: boolean;
}

/** The operations the REST description lists: those with a REST twin, in Group B or public. */
export function documentedOperations(catalogue: DeclarationList): OperationDeclaration[] {
  return catalogue.operations.filter((op) => op.rest && op.group !== "a" && op.group !== "a-open");
}

/**
 * The REST description served at /openapi-a2a.yaml: OpenAPI 3.1 generated from the catalogue — every served
 * operation's REST twin (path parameters, query or body, the success schema, each error status with its codes)
 * and the public documents. Group A and operator endpoints are left out.
 */
export function buildOpenApiDocument(
  catalogue: DeclarationList,
  routes: readonly DocumentedRoute[],
  info: { version: string; serverUrl: string },
): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "ApiKey", {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "Group B API key (free tier: POST /v1/a2a/keys)",
  });
  for (const op of documentedOperations(catalogue)) {
    const rest = op.rest!;
    const isGroupB = op.group === "b" || op.group === "b-open";
    const headers = isGroupB ? { headers: RATE_HEADERS } : {};
    const content = Object.fromEntries(
      (rest.produces ?? ["application/json"]).map((type) => [type, { schema: op.output }]),
    );
    const responses: Record<string, object> = {
      [String(rest.status ?? 200)]: { description: op.summary, ...headers, content },
      ...Object.fromEntries(
        (rest.otherStatuses ?? []).map(({ status, description }) => [
          String(status),
          { description, ...headers, content },
        ]),
      ),
      ...errorResponses([...op.errors, ...pipelineErrors(op)], headers),
    };
    const inPath = pathFields(rest.path);
    const params = requiredFields(fieldsOf(op.input, (name) => inPath.includes(name)));
    const rem = rest.readsOwnBody ? null : fieldsOf(op.input, (name) => !inPath.includes(name));
    registry.registerPath({
      method: rest.method,
      path: toOpenApiPath(rest.path),
      operationId: op.id,
      summary: op.summary,
      description: `${describedWithPrice(op)}${op.method ? ` Agent method: \`${op.method}\` (JSON-RPC, MCP, A2A).` : ""}`,
      tags: [op.group === "public" ? "Discovery" : "Group B (agents)"],
      ...(op.group === "b" ? { security: [{ ApiKey: [] }] } : {}),
      request: {
        ...(params ? { params } : {}),
        ...(rem && rest.method === "get" ? { query: rem } : {}),
        ...(rem && rest.method !== "get"
          ? { body: { required: false, content: { "application/json": { schema: rem } } } }
          : {}),
      },
      responses,
    });
  }
  for (const route of routes) {
    if (route.internal) continue;
    registry.registerPath({
      method: "get",
      path: route.path,
      operationId: route.id,
      summary: route.summary,
      description: route.description ?? route.summary,
      tags: ["Discovery"],
      responses: {
        200: {
          description: route.response.description,
          ...(route.response.schema
            ? { content: { [route.response.contentType ?? "application/json"]: { schema: route.response.schema } } }
            : {}),
        },
        ...errorResponses(route.errors ?? [], {}),
      },
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
        "{ error: { code, message, request_id, details? } }. The same operations are JSON-RPC 2.0 methods at " +
        "POST /api/a2a, MCP tools at /mcp and A2A skills (see /.well-known/agent-card.json).",
    },
    servers: [{ url: info.serverUrl }],
  });
}

export function openApiYaml(document: object): string {
  return stringify(document, { aliasDuplicateObjects: false });
}
