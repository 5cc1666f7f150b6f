import { JSONRPC_ERRORS } from "@hcs/protocol";
import { idTexts } from "./id-text.js";

/**
 * A JSON-RPC id as the JSON text it is answered with: a number exactly as the request wrote it (see id-text.ts), a
 * string as the same string, `null` for an id that is null, absent or unusable.
 */
export type RpcId = string;

const NULL_ID: RpcId = "null";

/** One entry of a JSON-RPC payload, after checking it is a well-formed request object. */
export type RpcEntry =
  | {
      readonly kind: "call";
      readonly id: RpcId;
      /** No `id` member at all: never answered (JSON-RPC 2.0 §4.1), and not run (rpc/endpoint.ts). */
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
  /** `{"method": …, "params": …}` without a `jsonrpc` member: the REST-style call docs/api.md describes. */
  | { readonly kind: "rest_style"; readonly method: unknown; readonly params: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Checks one request object (JSON-RPC 2.0 §4): `jsonrpc` "2.0", a string method, params an object or an array when
 * present (`null` is neither: Invalid Request, as for any other params that are not structured), id a string, a
 * number or null. `idText`: the id member's text in the body, which a number id is answered with.
 */
export function parseEntry(value: unknown, idText?: string): RpcEntry {
  if (!isObject(value)) return { kind: "invalid", id: NULL_ID, message: "a request must be a JSON object" };
  const hasId = Object.hasOwn(value, "id");
  const rawId = value.id;
  // An id we cannot echo faithfully (an object, an array, a boolean) makes the request invalid; answered with null.
  if (hasId && rawId !== null && typeof rawId !== "string" && typeof rawId !== "number")
    return { kind: "invalid", id: NULL_ID, message: "id must be a string, a number or null" };
  const id: RpcId =
    typeof rawId === "string" ? JSON.stringify(rawId) : typeof rawId === "number" ? (idText ?? String(rawId)) : NULL_ID;
  if (value.jsonrpc !== "2.0") return { kind: "invalid", id, message: 'jsonrpc must be exactly "2.0"' };
  if (typeof value.method !== "string") return { kind: "invalid", id, message: "method must be a string" };
  if (Object.hasOwn(value, "params") && (typeof value.params !== "object" || value.params === null))
    return { kind: "invalid", id, message: "params must be an object or an array when present (not null)" };
  return { kind: "call", id, notification: !hasId, method: value.method, params: value.params };
}

const hasNumberId = (v: unknown) => isObject(v) && typeof v.id === "number";

/**
 * Classifies a parsed JSON body (the caller answers -32700 when it does not parse at all); `text` is the body
 * JSON.parse read, where number ids are read again as written.
 */
export function parsePayload(body: unknown, text: string): RpcPayload {
  if (Array.isArray(body)) {
    if (body.length === 0) return { kind: "empty_batch" };
    const ids = body.some(hasNumberId) ? idTexts(text) : [];
    return { kind: "batch", entries: body.map((entry, i) => parseEntry(entry, ids[i])) };
  }
  if (isObject(body) && !Object.hasOwn(body, "jsonrpc") && Object.hasOwn(body, "method"))
    return { kind: "rest_style", method: body.method, params: body.params };
  return { kind: "single", entry: parseEntry(body, hasNumberId(body) ? idTexts(text)[0] : undefined) };
}

/** A JSON-RPC error object. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** The response to one call, as JSON text (results may already be serialized: they are spliced in, not re-encoded). */
export function responseText(id: RpcId, outcome: { result: string } | { error: RpcError }): string {
  const head = `{"jsonrpc":"2.0","id":${id},`;
  return "result" in outcome
    ? `${head}"result":${outcome.result}}`
    : `${head}"error":${JSON.stringify(outcome.error)}}`;
}

/** The answer to a body that could not be parsed (`error`: a refusal with its data, such as a body nested too deep). */
export const parseErrorResponse = (
  error: RpcError = { code: JSONRPC_ERRORS.parse_error, message: "Parse error: the body is not valid JSON" },
) => responseText(NULL_ID, { error });

/** The answer to a request whose id cannot be known (an empty or oversized batch). */
export const unidentifiedResponse = (error: RpcError) => responseText(NULL_ID, { error });

export const invalidRequest = (message: string, data?: unknown): RpcError => ({
  code: JSONRPC_ERRORS.invalid_request,
  message: `Invalid Request: ${message}`,
  ...(data === undefined ? {} : { data }),
});
