import type { ServiceDeps } from "./deps.js";

export interface LedgerEntry {
  readonly delta: number;
  readonly balance_after: number;
  readonly operation: string;
  readonly reference: string | null;
  readonly created_at: string;
}

/** The account's latest credit movements, newest first. */
export async function creditLedger(deps: ServiceDeps, accountId: string, limit = 50): Promise<LedgerEntry[]> {
  const rows = await deps.store.db
    .selectFrom("credit_ledger")
    .select(["delta", "balance_after", "operation", "reference", "created_at"])
    .where("account_id", "=", accountId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, delta: Number(r.delta), balance_after: Number(r.balance_after) }));
}
