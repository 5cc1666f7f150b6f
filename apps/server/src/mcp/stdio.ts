import { randomUUID } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import type { Logger } from "pino";
import { type Config, ConfigError } from "../config.js";
import { credentialsForKey } from "../http/credentials.js";
import type { Operation } from "../operations/operation.js";
import { CATALOGUE } from "../routes/catalogue.js";
import { openMigratedStore } from "../server.js";
import { localAppDeps } from "./local-deps.js";
import { buildMcpServer } from "./mcp-server.js";
import { loadMcpSdk } from "./sdk.js";
import { mcpTools } from "./tools.js";

/**
 * The client address of a stdio call in audit events and per-address limits. The caller is a process on this
 * machine talking over a pipe, not a network peer; the loopback address says exactly that (this host) and is a
 * valid address wherever one is expected, where a word such as "local" would not be.
 */
export const STDIO_CLIENT_IP = "127.0.0.1";

export interface McpStdioServer {
  /** The store the tools act on (its description: `hcs-server mcp` says which it opened). */
  readonly store: { readonly description: string };
  /** Settles when the session ends: the client closed our stdin, or close() was called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * `hcs-server mcp`: the agent methods as MCP tools over stdio, for an assistant on the operator's machine, acting
 * for one key's account. The key is checked once at start (a refused key is a configuration error, so the
 * assistant's MCP log shows why the server did not start) and again on every call, as an HTTP request would be:
 * a key revoked while the session runs stops working at once. Calls go through invoke with transport `mcp`, so
 * credits, limits and audit events are those of every other transport. `io.stdout` carries MCP frames only.
 */
export async function startMcpStdio(
  config: Config,
  logger: Logger,
  apiKey: { readonly key: string; readonly from: string },
  io: { readonly stdin: Readable; readonly stdout: Writable },
  operations: readonly Operation[] = CATALOGUE.operations,
): Promise<McpStdioServer> {
  const store = await openMigratedStore(config, logger);
  try {
    const deps = localAppDeps(config, logger, store);
    const first = await credentialsForKey(deps, apiKey.key);
    if (first.refused)
      throw new ConfigError(apiKey.from, `the key was refused (${first.refused.code}): ${first.refused.message}`);
    const sdk = await loadMcpSdk();
    const tools = mcpTools(operations);
    const server = buildMcpServer(sdk, deps, tools, {
      credentials: () => credentialsForKey(deps, apiKey.key),
      nextRequestId: () => randomUUID(),
      clientIp: STDIO_CLIENT_IP,
    });
    let ended!: () => void;
    const closed = new Promise<void>((resolve) => {
      ended = resolve;
    });
    let closing: Promise<void> | null = null;
    const close = () => {
      closing ??= (async () => {
        await server.close().catch((err: unknown) => logger.warn({ err }, "mcp: closing the session failed"));
        await store.close().catch((err: unknown) => logger.warn({ err }, "mcp: closing the store failed"));
        ended();
      })();
      return closing;
    };
    // The client ends a stdio session by closing our stdin; the SDK's transport does not watch for that itself.
    io.stdin.once("end", () => void close());
    await server.connect(new sdk.StdioServerTransport(io.stdin, io.stdout));
    logger.info({ tools: tools.list.length, key_id: first.caller?.keyId }, "mcp server on stdio");
    return { store: { description: store.description }, closed, close };
  } catch (err) {
    await store.close();
    throw err;
  }
}
