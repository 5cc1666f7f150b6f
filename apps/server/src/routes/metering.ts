import { CREDIT_PRICES, type MeteredOperation } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import type { HcsContext } from "../http/state.js";
import { insufficientCredits } from "../services/credit-errors.js";
import { chargeCredits } from "../services/credits.js";
import type { ServiceDeps } from "../services/deps.js";

/**
 * Runs a metered operation: the work runs first, and only when it succeeds are its credits taken, atomically
 * (DESIGN §3.3). For a GET the charge joins the request's settlement transaction (see http/audit.ts), with its
 * rate-limit count and audit event in one group commit; otherwise it is taken here, before the response. Either
 * way a concurrent spender who emptied the account first gets 402 and pays nothing.
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
  if (ctx.method === "GET" || ctx.method === "HEAD") {
    ctx.state.settlement.charge = { operation, price };
    return result;
  }
  const at = deps.now().toISOString();
  const charge = await deps.store.writes.run(async (trx) => {
    const c = await chargeCredits(deps.store.hot, trx, {
      accountId: caller.accountId,
      amount: price,
      operation,
      reference: ctx.state.requestId,
      at,
    });
    await ctx.state.auditInline?.(trx, c.charged ? 200 : 402);
    return c;
  });
  if (!charge.charged) throw insufficientCredits(price, charge.balance);
  ctx.set("X-Credits-Charged", String(price));
  ctx.set("X-Credits-Remaining", String(charge.balance));
  return result;
}
