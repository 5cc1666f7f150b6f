import { httpStatusFor, JSONRPC_ERRORS, jsonRpcCodeFor } from "@hcs/protocol";
import type { RatePolicy } from "../accounting/index.js";
import type { AppDeps } from "../app-deps.js";
import type { ServiceError } from "../errors.js";
import { type CallMeta, type Credentials, invoke } from "../operations/invoke.js";
import { type Operation, PreserializedJson, type Transport } from "../operations/operation.js";
import type { RpcError } from "./jsonrpc.js";

/** What a method call needs besides its params: the caller's credentials and the request it came in. */
export interface RpcCallContext {
  readonly deps: AppDeps;
  readonly credentials: Credentials;
  /** The id of this call (the HTTP request's, suffixed with the entry's position in a batch). */
  readonly requestId: string;
  readonly clientIp: string;
  /** A header of the HTTP request ("" when absent): protocol parameters such as A2A-Version travel there. */
  header(name: string): string;
  /** The quick over-limit read, shared by the calls of one HTTP request (see Invocation.overLimit). */
  readonly overLimit: (policy: RatePolicy) => Promise<boolean>;
}

/** A call's outcome: the result as JSON text, or an error (an HCS error, or a protocol's own JSON-RPC error). */
export type RpcOutcome = (
  | { readonly ok: true; readonly json: string }
  | { readonly ok: false; readonly error: ServiceError }
  | { readonly ok: false; readonly rpc: RpcError }
) & { readonly meta: CallMeta | null };

/** A method served on /api/a2a that is not a catalogue operation (the A2A task methods). */
export interface RpcHandler {
  call(params: unknown, ctx: RpcCallContext): Promise<RpcOutcome>;
}

export type RpcMethod =
  | { readonly kind: "operation"; readonly operation: Operation }
  | { readonly kind: "handler"; readonly handler: RpcHandler };

/**
 * The methods of the JSON-RPC endpoint: every catalogue operation with an agent method name, and the protocol
 * handlers given (A2A).
 */
export function methodTable(operations: readonly Operation[], handlers: Readonly<Record<string, RpcHandler>> = {}) {
  const table = new Map<string, RpcMethod>();
  for (const operation of operations)
    if (operation.method) table.set(operation.method, { kind: "operation", operation });
  for (const [name, handler] of Object.entries(handlers)) {
    if (table.has(name)) throw new Error(`JSON-RPC method ${name} is declared twice`);
    table.set(name, { kind: "handler", handler });
  }
  return table;
}

/**
 * Invokes a catalogue operation for a JSON-RPC (or A2A) call: named params are the operation's input. An A2A call
 * names the contextId of its message, which what the operation creates keeps.
 */
export async function callOperation(
  operation: Operation,
  params: unknown,
  ctx: RpcCallContext,
  transport: Transport = "jsonrpc",
  a2a: { readonly contextId?: string } = {},
): Promise<RpcOutcome> {
  if (Array.isArray(params))
    return {
      ok: false,
      rpc: { code: JSONRPC_ERRORS.invalid_params, message: "Invalid params: pass params by name (an object)" },
      meta: null,
    };
  const result = await invoke(ctx.deps, {
    operation,
    input: () => params ?? {},
    credentials: ctx.credentials,
    transport,
    requestId: ctx.requestId,
    clientIp: ctx.clientIp,
    overLimit: ctx.overLimit,
    ...(a2a.contextId ? { a2aContextId: a2a.contextId } : {}),
  });
  if (!result.ok) return { ok: false, error: result.error, meta: result };
  const json = result.output instanceof PreserializedJson ? result.output.json : JSON.stringify(result.output);
  return { ok: true, json, meta: result };
}

/**
 * An HCS error as a JSON-RPC error: the number of its HTTP status's family (clear of the codes A2A and MCP reserve,
 * see @hcs/protocol errors.ts), and in `data` the string code every client should branch on.
 */
export function rpcErrorOf(error: ServiceError, requestId: string): RpcError {
  return {
    code: jsonRpcCodeFor(error.code),
    message: error.message,
    data: {
      code: error.code,
      http_status: httpStatusFor(error.code),
      ...(error.details ? { details: error.details } : {}),
      request_id: requestId,
    },
  };
}
