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
