import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { AppDeps } from "../app-deps.js";
import { ServiceError } from "../errors.js";
import { type Credentials, type InvokeResult, invoke } from "../operations/invoke.js";
import { isStoreUnavailable, storeUnavailableError } from "../store/availability.js";
import type { McpSdk } from "./sdk.js";
import { toolResult } from "./tool-result.js";
import type { McpToolSet } from "./tools.js";

/** Who is calling and how calls are named, as the transport knows it. */
export interface McpCallerContext {
  /** The caller's credentials, resolved for each call (a key revoked or downgraded since is honoured at once). */
  credentials(): Promise<Credentials>;
  /** The request id of the next tool call (audit events and error bodies carry it). */
  nextRequestId(): string;
  readonly clientIp: string;
  /** Sees each call's outcome (the HTTP endpoint reports its rate-limit windows in headers). */
  onInvoked?(result: InvokeResult): void;
}

// JSON-RPC -32602: the MCP specification's answer to a tools/call naming a tool the server does not have.
const INVALID_PARAMS = -32602;

const INSTRUCTIONS =
  "HCS answers HIPAA compliance questions about US healthcare practices, by NPI (10 digits): grades, findings with " +
  "the HIPAA controls they touch and how to fix them, compliance state, scans. Each tool's description says what it " +
  "costs in credits; credits are charged only when a call succeeds. A failed call is a result with isError, and " +
  '_meta["hcs/error"].code names the reason (invalid_npi, insufficient_credits, rate_limited, forbidden, …).';

/**
 * An MCP server over the catalogue: tools/list answers the served agent methods, and tools/call runs the named
 * operation through invoke — authorize, count, validate, run, settle — exactly as REST and JSON-RPC do. The SDK's
 * low-level Server, not McpServer: McpServer validates arguments itself before the handler runs, so a bad NPI would
 * be refused uncounted, unaudited and without its error code; here the catalogue's pipeline judges every call.
 */
export function buildMcpServer(sdk: McpSdk, deps: AppDeps, tools: McpToolSet, caller: McpCallerContext): Server {
  const server = new sdk.Server(
    { name: "hcs", title: "HCS — Healthcare Compliance Service", version: deps.version },
    // The tool list is the catalogue's and changes only with a release: no listChanged notifications.
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({ tools: [...tools.list] }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request) => {
    const name = request.params.name;
    const operation = tools.operations.get(name);
    if (!operation) throw new sdk.McpError(INVALID_PARAMS, `Unknown tool: ${name.slice(0, 100)}`);
    const tool = { name, operation };
    const requestId = caller.nextRequestId();
    let credentials: Credentials;
    try {
      credentials = await caller.credentials();
    } catch (err) {
      // invoke never throws; the key lookup before it can (the store did not answer): still a tool error.
      deps.logger.warn({ err, request_id: requestId }, "mcp: could not resolve the caller's key");
      const error = isStoreUnavailable(err)
        ? storeUnavailableError()
        : new ServiceError("internal", "internal error; quote the request id when reporting it");
      return toolResult(tool, { ok: false, error, rate: null, retryAfter: null, charged: null }, requestId);
    }
    const result = await invoke(deps, {
      operation,
      input: () => request.params.arguments ?? {},
      credentials,
      transport: "mcp",
      requestId,
      clientIp: caller.clientIp,
    });
    caller.onInvoked?.(result);
    return toolResult(tool, result, requestId);
  });
  server.onerror = (err) => deps.logger.debug({ err }, "mcp protocol error");
  return server;
}
