import { z } from "zod";
import { grantCredits } from "../accounting/index.js";
import { ServiceError } from "../errors.js";
import type { AuditInTransaction } from "./audit.js";
import { iso, type ServiceDeps } from "./deps.js";

/** The ledger operation of credits added for payment or by the operator's grant. */
export const TOP_UP_OPERATION = "grant";

/** Largest balance an account may hold: PostgreSQL's `integer`, the type of accounts.credits. */
export const MAX_BALANCE = 2_147_483_647;

/** A top-up as it reaches the service: validated here, whoever asks for it (the CLI today, a processor later). */
export const TopUpSchema = z.strictObject({
  accountId: z.string().min(1).max(100),
  credits: z.int().min(1).max(MAX_BALANCE),
  /**
   * What paid for it — an invoice number, a payment id: the ledger row's reference, and unique per account, so the
   * same payment is never credited twice (a processor's retried notification, a command run twice).
   */
  reference: z
    .string()
    .regex(/^[\x21-\x7e]{1,100}$/, "1 to 100 printable characters without spaces")
    .nullable(),
});
export type TopUp = z.infer<typeof TopUpSchema>;

export interface TopUpDone {
  readonly accountId: string;
  readonly credits: number;
  readonly balance: number;
  readonly reference: string | null;
  readonly at: string;
}

/**
 * Adds credits to an account: **the seam a payment processor attaches to** (docs/api.md#plans-and-prices). HCS takes
 * no payments itself; today the operator calls this through `hcs-server credits grant` once an invoice is paid. A
 * processor's integration would call it from its settled-payment notification, with the processor's payment id as
 * `reference`: a reference the account's ledger already holds is refused (`conflict`), so a notification delivered
 * twice credits once. The ledger row (operation `grant`) and `auditIn`'s event commit together.
 */
export async function topUpCredits(
  deps: ServiceDeps,
  request: TopUp,
  auditIn?: AuditInTransaction<TopUpDone>,
): Promise<TopUpDone> {
  const parsed = TopUpSchema.safeParse(request);
  if (!parsed.success) throw new ServiceError("invalid_body", parsed.error.issues[0]!.message);
  const { accountId, credits, reference } = parsed.data;
  const at = iso(deps.now());
  return deps.store.db.transaction().execute(async (trx) => {
    const account = await trx.selectFrom("accounts").select("credits").where("id", "=", accountId).executeTakeFirst();
    if (!account) throw new ServiceError("not_found", `no account ${accountId}`);
    if (account.credits + credits > MAX_BALANCE)
      throw new ServiceError("invalid_body", `the balance would exceed ${MAX_BALANCE} credits`);
    // The balance's update comes first: it locks the account's row (PostgreSQL), so of two top-ups with one
    // reference the second sees the first's ledger row once it may go on, and is refused.
    const balance = await grantCredits(trx, { accountId, amount: credits, operation: TOP_UP_OPERATION, reference, at });
    if (reference !== null) {
      const same = await trx
        .selectFrom("credit_ledger")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("account_id", "=", accountId)
        .where("operation", "=", TOP_UP_OPERATION)
        .where("reference", "=", reference)
        .executeTakeFirstOrThrow();
      if (Number(same.n) > 1)
        throw new ServiceError("conflict", `credits with reference ${reference} were already added to this account`, {
          reference,
        });
    }
    const done: TopUpDone = { accountId, credits, balance, reference, at };
    await auditIn?.(trx, done);
    return done;
  });
}
