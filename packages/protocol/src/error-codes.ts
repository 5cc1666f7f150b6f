/**
 * Every error code the HTTP APIs return, with its HTTP status. The table is the single source:
 * the union type, the schema and the status lookup are derived from it.
 */
export const ERROR_CODES = {
  invalid_json: 400,
  invalid_body: 400,
  invalid_query: 400,
  invalid_npi: 400,
  invalid_callback_url: 400,
  invalid_scan_type: 400,
  invalid_target: 400,
  missing_credentials: 401,
  invalid_credentials: 401,
  invalid_signature: 401,
  deploy_token_expired: 401,
  deploy_token_revoked: 401,
  insufficient_credits: 402,
  https_required: 403,
  plan_required: 403,
  forbidden: 403,
  key_revoked: 403,
  agent_revoked: 403,
  agent_expired: 403,
  not_found: 404,
  npi_not_found: 404,
  job_not_found: 404,
  no_grade_yet: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  deploy_token_used: 409,
  idempotency_conflict: 409,
  not_checkpointed: 409,
  job_not_completed: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  not_implemented: 501,
  unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as ErrorCode[];

/** HTTP status for an error code. */
export function httpStatusFor(code: ErrorCode): number {
  return ERROR_CODES[code];
}

/** True for strings that are one of our error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CODES, value);
}
