import type { Store } from "../store/store.js";

/** An account's balance and the sum of its ledger, as of one moment. */
export interface LedgerAgreement {
  readonly accountId: string;
  readonly balance: number;
  readonly ledger: number;
  /** The account's ledger rows, as of the same moment. */
  readonly rows: readonly { readonly operation: string; readonly reference: string | null; readonly delta: number }[];
}

/**
 * Each account's balance and ledger read from ONE snapshot of the database, so that the check "every balance equals
 * its ledger" holds on a consistent database even while other processes keep charging and refunding. Reading the
 * ledger and then the balance in two statements on a pool does not: a refund the worker commits between the two reads
 * (a scan that failed for good) is in the balance and not in the ledger that was summed — what
 * e2e/postgres-restarts.e2e.test.ts once reported as a balance 150 (one scan) above its ledger
 * (ledger-agreement.test.ts reproduces it). PostgreSQL: one REPEATABLE READ transaction (its snapshot is taken by its
 * first statement); SQLite: one statement (its read sees one snapshot; a transaction there would take the write lock).
 * `afterLedgerRead` runs between the two reads on PostgreSQL, for the test that injects a commit there.
 */
export async function ledgerAgreement(
  store: Store,
  accountIds: readonly string[],
  o: { readonly afterLedgerRead?: () => Promise<void> } = {},
): Promise<LedgerAgreement[]> {
  if (accountIds.length === 0) return [];
  if (store.engine === "sqlite") {
    const rows = await store.db
      .selectFrom("accounts as a")
      .leftJoin("credit_ledger as l", "l.account_id", "a.id")
      .select(["a.id", "a.credits", "l.operation", "l.reference", "l.delta"])
      .where("a.id", "in", accountIds)
      .orderBy("l.id")
      .execute();
    return agreementOf(accountIds, rows);
  }
  return store.db
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (trx) => {
      const ledger = await trx
        .selectFrom("credit_ledger")
        .select(["account_id as id", "operation", "reference", "delta"])
        .where("account_id", "in", accountIds)
        .orderBy("id")
        .execute();
      await o.afterLedgerRead?.();
      const balances = await trx
        .selectFrom("accounts")
        .select(["id", "credits"])
        .where("id", "in", accountIds)
        .execute();
      const credits = new Map(balances.map((b) => [b.id, Number(b.credits)]));
      return agreementOf(
        accountIds,
        ledger.map((l) => ({ ...l, credits: credits.get(l.id) ?? 0 })),
        credits,
      );
    });
}

type Row = {
  id: string;
  credits: number;
  operation: string | null;
  reference: string | null;
  delta: number | string | null;
};

function agreementOf(
  accountIds: readonly string[],
  rows: readonly Row[],
  credits = new Map(rows.map((r) => [r.id, Number(r.credits)])),
): LedgerAgreement[] {
  return accountIds.map((accountId) => {
    const mine = rows.filter((r) => r.id === accountId && r.operation !== null);
    const ledgerRows = mine.map((r) => ({ operation: r.operation!, reference: r.reference, delta: Number(r.delta) }));
    return {
      accountId,
      balance: credits.get(accountId) ?? 0,
      ledger: ledgerRows.reduce((s, r) => s + r.delta, 0),
      rows: ledgerRows,
    };
  });
}
