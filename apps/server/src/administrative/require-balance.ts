import { ServiceError } from "../errors.js";
import { insufficientCredits } from "../services/credit-errors.js";
import type { ServiceDeps } from "../services/deps.js";

/**
 * Refuses (402) before the work is done when the balance cannot cover what the call will cost: an SRA, generated
 * policies or vendor scans are stored as they are made, so a call the settlement would refuse must not make them.
 * The settlement still takes the credits atomically; this only keeps an unpaid call from leaving work behind.
 */
export async function requireBalance(deps: ServiceDeps, accountId: string, required: number): Promise<void> {
  const account = await deps.store.db
    .selectFrom("accounts")
    .select("credits")
    .where("id", "=", accountId)
    .executeTakeFirst();
  if (!account) throw new ServiceError("forbidden", "unknown account");
  if (account.credits < required) throw insufficientCredits(required, account.credits);
}
