import { httpStatusFor, MAX_JSON_DEPTH } from "@hcs/protocol";
import { countRequest, groupBPolicy, rateLimitedError, type WindowState } from "../accounting/index.js";
import type { AppDeps } from "../app-deps.js";
import { isServiceError, ServiceError } from "../errors.js";
import { isJsonRequest, readRawBody } from "../http/body.js";
import { credentialsOf } from "../http/credentials.js";
import { errorBody } from "../http/error-body.js";
import { setRateHeaders } from "../http/rate-headers.js";
import { requestGuard } from "../http/rest-binding.js";
import type { HcsContext } from "../http/state.js";
import type { Operation } from "../operations/operation.js";
import type { Caller } from "../services/caller.js";
import { nestsDeeperThan, tooDeepError } from "../util/json-depth.js";
import { buildMcpServer } from "./mcp-server.js";
import { countsAsRequest } from "./message-count.js";
import { allowedSources, foreignSourceError } from "./request-origin.js";
import { loadMcpSdk } from "./sdk.js";
import { type McpToolSet, mcpTools } from "./tools.js";

// Request headers the MCP transport reads; the key headers are not handed to the SDK (nothing there needs them).
const MCP_HEADERS = ["accept", "content-type", "mcp-protocol-version", "mcp-session-id", "last-event-id"];

/** Counts a request once against the caller's Group B limit (per key, or per client address); the 429 when over. */
async function countOnce(deps: AppDeps, ctx: HcsContext, caller: Caller | null, windows: WindowState[]) {
  const counted = await countRequest(deps, groupBPolicy(caller, ctx.state.clientIp));
  windows.push(...counted);
  return rateLimitedError(counted, deps.now().getTime());
}

/** A refusal before any MCP processing, as the error body every HTTP API answers with (docs/api.md#errors). */
function answerRefusal(ctx: HcsContext, error: ServiceError, retryAfter: number | null): void {
  const status = httpStatusFor(error.code);
  // RFC 9110: a 401 names how to authenticate; the key also works as a Bearer token.
  if (status === 401)
    ctx.set(
      "WWW-Authenticate",
      error.code === "missing_credentials" ? 'Bearer realm="hcs"' : 'Bearer realm="hcs", error="invalid_token"',
    );
  if (error.code === "method_not_allowed") ctx.set("Allow", "POST");
  if (retryAfter !== null) ctx.set("Retry-After", String(retryAfter));
  ctx.status = status;
  ctx.body = errorBody(error.code, error.message, ctx.state.requestId, error.details);
}

/**
 * The JSON body, or undefined when there is none or it is not JSON (the SDK transport then answers the error).
 * Throws 413 past the size limit, 400 invalid_json for a body nested deeper than MAX_JSON_DEPTH (checked before it
 * is parsed), and invalid_body for a body cut short.
 */
async function jsonBodyOf(ctx: HcsContext): Promise<unknown> {
  if (!isJsonRequest(ctx)) return undefined;
  const raw = await readRawBody(ctx);
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) throw tooDeepError("the body");
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** The request as the SDK's web-standard transport takes it (the body is handed over parsed). */
function webRequestOf(ctx: HcsContext, publicUrl: string): Request {
  const headers = new Headers();
  for (const name of MCP_HEADERS) if (ctx.get(name)) headers.set(name, ctx.get(name));
  return new Request(new URL("/mcp", publicUrl), { method: "POST", headers });
}

/** Copies the transport's answer (a JSON-RPC response, or an empty 202 for notifications) onto the Koa response. */
async function writeResponse(ctx: HcsContext, response: Response): Promise<void> {
  const type = response.headers.get("content-type");
  ctx.status = response.status;
  ctx.body = await response.text();
  if (type) ctx.type = type;
  else ctx.remove("Content-Type");
}

/**
 * POST /mcp: MCP Streamable HTTP, stateless — a fresh SDK server and transport per request, JSON responses, no
 * session and no server-initiated stream (GET and DELETE answer 405, as the SDK's stateless servers do). Before any
 * MCP processing: DNS-rebinding checks (Origin, Host), then the key (X-API-Key or Bearer; 401 without one, even for
 * initialize and tools/list, since the tools act for an account). Counting: every tools/call goes through invoke,
 * which counts it as REST counts a call; whatever else a request carries — initialize, tools/list, ping,
 * notifications, tool calls of public operations, bodies that are not JSON-RPC — counts the request once, before it
 * is processed (429 past the limit). A request nothing counted (its tool calls were refused before invoke) is
 * counted afterwards, so no request is free. Every answer carries the rate-limit headers.
 */
export function mcpEndpoint(deps: AppDeps, operations: readonly Operation[]) {
  const sources = allowedSources(deps.config.publicUrl, deps.config.host);
  // Built on the first MCP request: the JSON Schemas of every tool, and the SDK (see sdk.ts), are not start-up costs.
  let tools: McpToolSet | null = null;

  return async (ctx: HcsContext): Promise<void> => {
    requestGuard(ctx);
    const credentials = await credentialsOf(deps, ctx, "either");
    const caller = credentials.caller;
    ctx.state.caller = caller;
    const windows: WindowState[] = [];
    try {
      const refusal =
        foreignSourceError(sources, ctx.get("Origin") || undefined, ctx.get("Host") || undefined) ??
        (caller ? null : credentials.refused) ??
        (ctx.method === "POST"
          ? null
          : new ServiceError("method_not_allowed", `${ctx.method} is not allowed on /mcp: this server is stateless`));
      if (refusal) {
        const limited = await countOnce(deps, ctx, caller, windows);
        return answerRefusal(ctx, limited?.error ?? refusal, limited?.retryAfter ?? null);
      }

      let sdk: Awaited<ReturnType<typeof loadMcpSdk>>;
      let body: unknown;
      try {
        [sdk, body] = await Promise.all([loadMcpSdk(), jsonBodyOf(ctx)]);
      } catch (err) {
        if (!isServiceError(err)) throw err;
        // A body refused (too large, nested too deep, cut short) is counted like any other refusal.
        const limited = await countOnce(deps, ctx, caller, windows);
        return answerRefusal(ctx, limited?.error ?? err, limited?.retryAfter ?? null);
      }
      tools ??= mcpTools(operations);
      if (countsAsRequest(body, tools.operations)) {
        const limited = await countOnce(deps, ctx, caller, windows);
        if (limited) return answerRefusal(ctx, limited.error, limited.retryAfter);
      }

      let calls = 0;
      const server = buildMcpServer(sdk, deps, tools, {
        credentials: async () => credentials,
        // The first tool call carries the HTTP request's id; further ones in a batch get a suffix, as JSON-RPC's do.
        nextRequestId: () => {
          const n = calls++;
          return n === 0 ? ctx.state.requestId : `${ctx.state.requestId}.${n}`;
        },
        clientIp: ctx.state.clientIp,
        onInvoked: (result) => windows.push(...(result.rate ?? [])),
      });
      const transport = new sdk.WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        const response = await transport.handleRequest(
          webRequestOf(ctx, deps.config.publicUrl),
          body === undefined ? {} : { parsedBody: body },
        );
        await writeResponse(ctx, response);
      } finally {
        await server.close();
      }
      if (windows.length === 0) await countOnce(deps, ctx, caller, windows);
    } finally {
      if (windows.length > 0) setRateHeaders(ctx, windows);
    }
  };
}
