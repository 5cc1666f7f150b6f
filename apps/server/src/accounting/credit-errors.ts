import { ServiceError } from "../errors.js";

/**
 * The 402 of a metered operation the account cannot pay for (docs/api.md#errors: details carry required and balance).
 */
export function insufficientCredits(required: number, balance: number): ServiceError {
  return new ServiceError(
    "insufficient_credits",
    `this operation costs ${required} credits; the account holds ${balance}`,
    {
      required,
      balance,
    },
  );
}

/** The refusals whose remedy is more credits or another plan: 402 insufficient_credits and 403 plan_required. */
const UPGRADE_CODES: ReadonlySet<string> = new Set(["insufficient_credits", "plan_required"]);

/**
 * An upgrade refusal as every transport answers it (docs/api.md#plans-and-prices): the message says where to ask for
 * credits or a plan change — the operator's HCS_CONTACT_EMAIL — and `details.contact_email` carries the address
 * (null when none is configured). Other errors are returned as they are. Applied once, where the call pipeline
 * answers a refusal (operations/invoke.ts), so no transport can answer one without it.
 */
export function withUpgradeContact(error: ServiceError, contactEmail: string | null): ServiceError {
  if (!UPGRADE_CODES.has(error.code) || error.details?.contact_email !== undefined) return error;
  const ask =
    error.code === "plan_required"
      ? "to change plan"
      : "to add credits or change plan (GET /v1/a2a/account shows the plans)";
  const where = contactEmail ? `write to ${contactEmail} ${ask}` : `ask this service's operator ${ask}`;
  return new ServiceError(error.code, `${error.message}; ${where}`, {
    ...error.details,
    contact_email: contactEmail,
  });
}
