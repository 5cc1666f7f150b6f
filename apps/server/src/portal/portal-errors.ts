/** What went wrong in the portal, by code (never matched by message; messages are shown to the person). */
export type PortalErrorCode =
  | "invalid_input"
  | "invalid_credentials"
  | "account_locked"
  | "rate_limited"
  | "invalid_code"
  | "invite_invalid"
  | "user_exists"
  | "forbidden"
  | "not_found"
  | "csrf_failed"
  | "plan_required"
  | "insufficient_credits"
  | "payload_too_large";

/** HTTP status of each code when a page answers it. */
export const PORTAL_ERROR_STATUS: Record<PortalErrorCode, number> = {
  invalid_input: 400,
  invalid_credentials: 401,
  account_locked: 423,
  rate_limited: 429,
  invalid_code: 401,
  invite_invalid: 410,
  user_exists: 409,
  forbidden: 403,
  not_found: 404,
  csrf_failed: 403,
  // As the API answers them: Group A needs a Professional or Enterprise plan (403); a short balance is 402.
  plan_required: 403,
  insufficient_credits: 402,
  payload_too_large: 413,
};

export class PortalError extends Error {
  constructor(
    readonly code: PortalErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "PortalError";
  }
}

export const isPortalError = (err: unknown): err is PortalError => err instanceof PortalError;
