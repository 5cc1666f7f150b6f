import type { z } from "zod";
import type { ServiceError } from "../errors.js";
import { inputError } from "../operations/input-errors.js";
import type { RpcError } from "../rpc/jsonrpc.js";
import { type RpcCallContext, type RpcOutcome, rpcErrorOf } from "../rpc/methods.js";

/**
 * A2A v1.0's own JSON-RPC errors (-32001…-32009, reserved on this endpoint; HCS's codes sit outside the band).
 * Wire numbers are kept apart from HCS's string codes, which travel in `data.code` where there is one.
 */
export const A2A_ERRORS = {
  task_not_found: -32001,
  task_not_cancelable: -32002,
  push_notification_not_supported: -32003,
  unsupported_operation: -32004,
  content_type_not_supported: -32005,
  version_not_supported: -32009,
} as const;

export type A2aErrorKind = keyof typeof A2A_ERRORS;

/**
 * An A2A error as the call's outcome. With `cause` (the HCS error behind it, e.g. job_not_found behind
 * TaskNotFound), `data` is the HCS error's — code, http_status, details, request_id — as for every HCS error here.
 */
export function a2aError(
  kind: A2aErrorKind,
  message: string,
  ctx: RpcCallContext,
  o: { cause?: ServiceError; data?: Record<string, unknown>; meta?: RpcOutcome["meta"] } = {},
): RpcOutcome {
  const hcs = o.cause ? (rpcErrorOf(o.cause, ctx.requestId).data as Record<string, unknown>) : {};
  const data = { ...hcs, ...o.data };
  const rpc: RpcError = {
    code: A2A_ERRORS[kind],
    message,
    ...(Object.keys(data).length > 0 ? { data } : {}),
  };
  return { ok: false, rpc, meta: o.meta ?? null };
}

/** A failed call's outcome for an HCS error (the endpoint answers it in HCS's own band, data.code set). */
export const hcsError = (error: ServiceError, meta: RpcOutcome["meta"] = null): RpcOutcome => ({
  ok: false,
  error,
  meta,
});

/** A successful call's outcome: the A2A object as JSON. */
export const answered = (value: unknown, meta: RpcOutcome["meta"]): RpcOutcome => ({
  ok: true,
  json: JSON.stringify(value),
  meta,
});

/**
 * An A2A method's params, checked against its schema; params that do not fit are -32602 invalid params with the
 * problems in data.details.issues (data.code invalid_body), as for every method on this endpoint.
 */
export function readParams<S extends z.ZodType>(
  schema: S,
  params: unknown,
): { readonly ok: true; readonly value: z.output<S> } | { readonly ok: false; readonly outcome: RpcOutcome } {
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, outcome: hcsError(inputError(parsed.error, params)) };
}
