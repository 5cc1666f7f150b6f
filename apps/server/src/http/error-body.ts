import type { ErrorBody, ErrorCode } from "@hcs/protocol";

/** The error envelope of every HTTP API (docs/api.md#errors). */
export function errorBody(
  code: ErrorCode,
  message: string,
  requestId: string,
  details?: Record<string, unknown>,
): ErrorBody {
  return { error: { code, message, request_id: requestId, ...(details ? { details } : {}) } };
}
