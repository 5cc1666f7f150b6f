import type { Kysely } from "kysely";
import { expect } from "vitest";
import type { Database } from "../store/schema.js";

/**
 * An account's whole balance went to exactly `charges` calls of `operation`: nothing left, and its ledger — the
 * grant and every charge — sums to zero.
 */
export async function expectBalanceSpentOn(
  db: Kysely<Database>,
  accountId: string,
  operation: string,
  charges: number,
): Promise<void> {
  const account = await db
    .selectFrom("accounts")
    .select("credits")
    .where("id", "=", accountId)
    .executeTakeFirstOrThrow();
  expect(account.credits).toBe(0);
  const ledger = await db.selectFrom("credit_ledger").selectAll().where("account_id", "=", accountId).execute();
  expect(ledger.reduce((s, r) => s + r.delta, 0)).toBe(0);
  expect(ledger.filter((r) => r.operation === operation)).toHaveLength(charges);
}
