import { CREDIT_PRICES, type MeteredOperation } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import type { HcsContext } from "../http/state.js";
import { chargeCredits } from "../services/credits.js";
import type { ServiceDeps } from "../services/deps.js";

function insufficient(required: number, balance: number): ServiceError {
  return new ServiceError(
    "insufficient_credits",
    `this operation costs ${required} credits; the account holds ${balance}`,
    {
      required,
      balance,
    },
  );
}

/**
 * Runs a metered operation: the work runs first, and only when it succeeds are its credits taken, atomically, in
 * the group-commit batch (DESIGN §3.3). A concurrent spender who emptied the account first gets 402 and pays nothing.
 */
export async function metered<T>(
  deps: ServiceDeps,
  ctx: HcsContext,
  operation: MeteredOperation,
  work: () => Promise<T>,
): Promise<T> {
  const caller = ctx.state.caller;
  if (!caller) throw new ServiceError("missing_credentials", "an API key is required");
  const price = CREDIT_PRICES[operation];
  const result = await work();
  const at = deps.now().toISOString();
  // The charge decides the response (200 or 402), so the audit event rides in the same group commit.
  const charge = await deps.store.writes.run(async (trx) => {
    const c = await chargeCredits(trx, {
      accountId: caller.accountId,
      amount: price,
      operation,
      reference: ctx.state.requestId,
      at,
    });
    await ctx.state.auditInline?.(trx, c.charged ? 200 : 402);
    return c;
  });
  if (!charge.charged) throw insufficient(price, charge.balance);
  ctx.set("X-Credits-Charged", String(price));
  ctx.set("X-Credits-Remaining", String(charge.balance));
  return result;
}

export { insufficient as insufficientCredits };
