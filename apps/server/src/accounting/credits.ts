import type { MeteredOperation } from "@hcs/protocol";
import type { Transaction } from "kysely";
import { type HotExecutor, type HotSql, insertRows } from "../store/hot-sql.js";
import type { Database } from "../store/schema.js";

export type ChargeResult = { charged: true; balance: number } | { charged: false; balance: number };

/** One charge: `amount` credits from an account, with the ledger row's operation, reference and time. */
export interface Charge {
  readonly accountId: string;
  readonly amount: number;
  readonly operation: MeteredOperation | string;
  readonly reference: string | null;
  readonly at: string;
}

const TAKE = "update accounts set credits = credits - ? where id = ? and credits >= ? returning credits";

/**
 * Takes `amount` credits from an account if it holds them, and writes the ledger row, inside the caller's
 * transaction. The conditional UPDATE is what makes it atomic: two concurrent charges can never both spend the
 * same credits, on SQLite or on PostgreSQL.
 */
export async function chargeCredits(hot: HotSql, trx: Transaction<Database>, charge: Charge): Promise<ChargeResult> {
  return (await chargeAll(hot, trx, [charge]))[0]!;
}

/**
 * {@link chargeCredits} for the charges of a group commit, as if each were taken in turn: per account, one
 * conditional UPDATE takes them all when the account holds their sum (the usual case), otherwise they are taken
 * one by one in order until the balance runs short; the ledger rows are written together, in order. Accounts are
 * updated in id order, so two processes' groups lock them in the same order.
 */
export async function chargeAll(hot: HotSql, trx: HotExecutor, charges: readonly Charge[]): Promise<ChargeResult[]> {
  const results: ChargeResult[] = new Array(charges.length);
  const byAccount = new Map<string, number[]>();
  for (const [i, c] of charges.entries()) {
    const list = byAccount.get(c.accountId);
    if (list) list.push(i);
    else byAccount.set(c.accountId, [i]);
  }
  for (const accountId of [...byAccount.keys()].sort()) {
    const positions = byAccount.get(accountId)!;
    const total = positions.reduce((sum, i) => sum + charges[i]!.amount, 0);
    // Hot path (every metered call, one statement per account and group).
    const [all] = await hot.all<{ credits: number }>(trx, TAKE, [total, accountId, total]);
    if (all) {
      let balance = Number(all.credits) + total;
      for (const i of positions) {
        balance -= charges[i]!.amount;
        results[i] = { charged: true, balance };
      }
      continue;
    }
    for (const i of positions) {
      const amount = charges[i]!.amount;
      const [one] = await hot.all<{ credits: number }>(trx, TAKE, [amount, accountId, amount]);
      if (one) {
        results[i] = { charged: true, balance: Number(one.credits) };
        continue;
      }
      const [row] = await hot.all<{ credits: number }>(trx, "select credits from accounts where id = ?", [accountId]);
      results[i] = { charged: false, balance: Number(row?.credits ?? 0) };
    }
  }
  await insertRows(
    hot,
    trx,
    "credit_ledger",
    ["account_id", "delta", "balance_after", "operation", "reference", "created_at"],
    charges.flatMap((c, i) => {
      const r = results[i]!;
      return r.charged ? [[c.accountId, -c.amount, r.balance, c.operation, c.reference, c.at]] : [];
    }),
  );
  return results;
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
    // The expression builder, not Kysely's `sql` tag: the hot path's settlement module loads
    // this one, and a worker thread that imports it must not pay Kysely's runtime (~7 MiB of heap per isolate: docs/performance.md#memory).
    .set((eb) => ({ credits: eb("credits", "+", input.amount) }))
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
