import { CREDIT_PRICES, type MeteredOperation } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import type { HcsContext } from "../http/state.js";

/**
 * Runs a metered operation: the work runs first, and only when it succeeds are its credits taken (DESIGN §3.3);
 * a HEAD request is never charged.
 * The charge joins the request's settlement transaction (see http/audit.ts) with its rate-limit count and audit
 * event, committed before the response is sent; a concurrent spender who emptied the account first gets 402 and
 * pays nothing.
 */
export async function metered<T>(ctx: HcsContext, operation: MeteredOperation, work: () => Promise<T>): Promise<T> {
  if (!ctx.state.caller) throw new ServiceError("missing_credentials", "an API key is required");
  const result = await work();
  // HEAD answers the same status and headers as GET but delivers nothing: it is never charged.
  if (ctx.method !== "HEAD") ctx.state.settlement.charge = { operation, price: CREDIT_PRICES[operation] };
  return result;
}
