import type { ErrorBody, ErrorCode } from "@hcs/protocol";

/** The DESIGN §3.2 error envelope. */
export function errorBody(
  code: ErrorCode,
  message: string,
  requestId: string,
  details?: Record<string, unknown>,
): ErrorBody {
  return { error: { code, message, request_id: requestId, ...(details ? { details } : {}) } };
}
