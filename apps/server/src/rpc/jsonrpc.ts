import { JSONRPC_ERRORS } from "@hcs/protocol";

/** A JSON-RPC id as the request gave it: echoed verbatim (null is a valid id and is answered). */
export type RpcId = string | number | null;

/** One entry of a JSON-RPC payload, after checking it is a well-formed request object. */
export type RpcEntry =
  | {
      readonly kind: "call";
      readonly id: RpcId;
      /** No `id` member at all: executed, never answered (JSON-RPC 2.0 §4.1). */
      readonly notification: boolean;
      readonly method: string;
      readonly params: unknown;
    }
  | { readonly kind: "invalid"; readonly id: RpcId; readonly message: string };

/** A payload: one request, a batch, or something that is not JSON-RPC at all. */
export type RpcPayload =
  | { readonly kind: "single"; readonly entry: RpcEntry }
  | { readonly kind: "batch"; readonly entries: readonly RpcEntry[] }
  /** An empty array: answered with one Invalid Request error (JSON-RPC 2.0 §6). */
  | { readonly kind: "empty_batch" }
  /** `{"method": …, "params": …}` without a `jsonrpc` member: the REST-style call DESIGN §7 accepts. */
  | { readonly kind: "rest_style"; readonly method: unknown; readonly params: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Checks one request object (JSON-RPC 2.0 §4): `jsonrpc` "2.0", a string method, params structured, id scalar. */
export function parseEntry(value: unknown): RpcEntry {
  if (!isObject(value)) return { kind: "invalid", id: null, message: "a request must be a JSON object" };
  const hasId = Object.hasOwn(value, "id");
  const rawId = value.id;
  const idOk =
    !hasId || rawId === null || typeof rawId === "string" || (typeof rawId === "number" && Number.isFinite(rawId));
  // An id we cannot echo faithfully (an object, an array, a boolean) makes the request invalid; answered with null.
  const id: RpcId = idOk && hasId ? (rawId as RpcId) : null;
  if (!idOk) return { kind: "invalid", id: null, message: "id must be a string, a number or null" };
  if (value.jsonrpc !== "2.0") return { kind: "invalid", id, message: 'jsonrpc must be exactly "2.0"' };
  if (typeof value.method !== "string") return { kind: "invalid", id, message: "method must be a string" };
  if (Object.hasOwn(value, "params") && typeof value.params !== "object")
    return { kind: "invalid", id, message: "params must be an object or an array" };
  return { kind: "call", id, notification: !hasId, method: value.method, params: value.params };
}

/** Classifies a parsed JSON body (the caller answers -32700 when it does not parse at all). */
export function parsePayload(body: unknown): RpcPayload {
  if (Array.isArray(body)) {
    if (body.length === 0) return { kind: "empty_batch" };
    return { kind: "batch", entries: body.map(parseEntry) };
  }
  if (isObject(body) && !Object.hasOwn(body, "jsonrpc") && Object.hasOwn(body, "method"))
    return { kind: "rest_style", method: body.method, params: body.params };
  return { kind: "single", entry: parseEntry(body) };
}

/** A JSON-RPC error object. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** The response to one call, as JSON text (results may already be serialized: they are spliced in, not re-encoded). */
export function responseText(id: RpcId, outcome: { result: string } | { error: RpcError }): string {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},`;
  return "result" in outcome
    ? `${head}"result":${outcome.result}}`
    : `${head}"error":${JSON.stringify(outcome.error)}}`;
}

export const parseErrorResponse = () =>
  responseText(null, {
    error: { code: JSONRPC_ERRORS.parse_error, message: "Parse error: the body is not valid JSON" },
  });

export const invalidRequest = (message: string, data?: unknown): RpcError => ({
  code: JSONRPC_ERRORS.invalid_request,
  message: `Invalid Request: ${message}`,
  ...(data === undefined ? {} : { data }),
});
