import { z } from "zod";
import { ERROR_CODE_LIST, ERROR_CODES, type ErrorCode } from "./error-codes.js";

// The codes and their statuses are in error-codes.ts (no zod: worker threads import them through
// @hcs/protocol/schema-free); re-exported here so that the package entry is unchanged.
export { ERROR_CODE_LIST, ERROR_CODES, type ErrorCode, httpStatusFor, isErrorCode } from "./error-codes.js";

export const ErrorCodeSchema = z.enum(ERROR_CODE_LIST as [ErrorCode, ...ErrorCode[]]);

/** The error body of every HTTP API (docs/api.md#errors). */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: ErrorCodeSchema,
      message: z.string(),
      request_id: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: "ErrorBody", description: "Error envelope returned by every HTTP API" });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** JSON-RPC 2.0 reserved codes (wire numbers, kept apart from our string codes). */
export const JSONRPC_ERRORS = {
  parse_error: -32700,
  invalid_request: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  internal_error: -32603,
} as const;

export type JsonRpcReservedError = keyof typeof JSONRPC_ERRORS;

/**
 * Numbers other protocols sharing our endpoints reserve inside the implementation-defined range -32000…-32099:
 * A2A v1.0 (served on the same /api/a2a endpoint) owns -32001…-32009 (TaskNotFound, TaskNotCancelable,
 * PushNotificationNotSupported, UnsupportedOperation, ContentTypeNotSupported, InvalidAgentResponse,
 * ExtendedAgentCardNotConfigured, ExtensionSupportRequired, VersionNotSupported); the MCP SDK uses -32000
 * (ConnectionClosed), -32001 (RequestTimeout) and -32042 (UrlElicitationRequired). Our codes avoid all of them.
 */
export const RESERVED_JSONRPC_CODES: readonly number[] = [
  -32000, -32001, -32002, -32003, -32004, -32005, -32006, -32007, -32008, -32009, -32042,
];

// HCS application errors: one number per HTTP status in -32011…-32053, clear of the reserved numbers above; the
// string code travels in `data.code`, so clients never need the number. Input errors (400) are invalid params
// (docs/api.md: an invalid NPI is -32602), unexpected failures internal errors.
const JSONRPC_BY_STATUS: Record<number, number> = {
  400: JSONRPC_ERRORS.invalid_params,
  401: -32011,
  402: -32012,
  403: -32013,
  404: -32014,
  405: -32015,
  406: -32016,
  409: -32019,
  413: -32023,
  415: -32025,
  429: -32029,
  500: JSONRPC_ERRORS.internal_error,
  501: -32051,
  503: -32053,
};

/** JSON-RPC numeric code for one of our error codes. */
export function jsonRpcCodeFor(code: ErrorCode): number {
  return JSONRPC_BY_STATUS[ERROR_CODES[code]] ?? JSONRPC_ERRORS.internal_error;
}

/** True for a number HCS uses for its own application errors (the server range, minus the reserved numbers). */
export function isApplicationJsonRpcCode(n: number): boolean {
  return n <= -32000 && n >= -32099 && !RESERVED_JSONRPC_CODES.includes(n);
}
