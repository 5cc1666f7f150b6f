import type { MeteredOperation } from "@hcs/protocol";
import { sql, type Transaction } from "kysely";
import type { HotSql } from "../store/hot-sql.js";
import type { Database } from "../store/schema.js";

export type ChargeResult = { charged: true; balance: number } | { charged: false; balance: number };

/**
 * Takes `amount` credits from an account if it holds them, and writes the ledger row, inside the caller's
 * transaction. The conditional UPDATE is what makes it atomic: two concurrent charges can never both spend the
 * same credits, on SQLite or on PostgreSQL.
 */
export async function chargeCredits(
  hot: HotSql,
  trx: Transaction<Database>,
  input: {
    accountId: string;
    amount: number;
    operation: MeteredOperation | string;
    reference: string | null;
    at: string;
  },
): Promise<ChargeResult> {
  // Hot path (every metered request).
  const [updated] = await hot.all<{ credits: number }>(
    trx,
    "update accounts set credits = credits - ? where id = ? and credits >= ? returning credits",
    [input.amount, input.accountId, input.amount],
  );
  if (!updated) {
    const [row] = await hot.all<{ credits: number }>(trx, "select credits from accounts where id = ?", [
      input.accountId,
    ]);
    return { charged: false, balance: row?.credits ?? 0 };
  }
  await hot.all(
    trx,
    "insert into credit_ledger (account_id, delta, balance_after, operation, reference, created_at) values (?, ?, ?, ?, ?, ?)",
    [input.accountId, -input.amount, updated.credits, input.operation, input.reference, input.at],
  );
  return { charged: true, balance: updated.credits };
}

/** Adds credits (grants, refunds) with a ledger row, inside the caller's transaction. */
export async function grantCredits(
  trx: Transaction<Database>,
  input: { accountId: string; amount: number; operation: string; reference: string | null; at: string },
): Promise<number> {
  if (!Number.isInteger(input.amount) || input.amount < 0)
    throw new RangeError("credit grants are non-negative integers");
  const updated = await trx
    .updateTable("accounts")
    .set({ credits: sql`credits + ${input.amount}` })
    .where("id", "=", input.accountId)
    .returning("credits")
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("credit_ledger")
    .values({
      account_id: input.accountId,
      delta: input.amount,
      balance_after: updated.credits,
      operation: input.operation,
      reference: input.reference,
      created_at: input.at,
    })
    .execute();
  return updated.credits;
}
