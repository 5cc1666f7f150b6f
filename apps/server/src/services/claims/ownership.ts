import type { Transaction } from "kysely";
import type { Database } from "../../store/schema.js";

/**
 * Gives a practice to `accountId` in `trx` — every change of owner goes through here (a claim proved, lapsed or
 * revoked, the operator's override). Enrolment is the enrolling account's authority over the practice: the scanners
 * and deploy tokens of every other account are revoked in the same transaction, so a former owner's machines no longer
 * write into the new owner's grade, nor do its unused tokens enrol more (docs/onboarding.md#a-change-of-owner). An
 * upload in flight when the owner changes is refused at its commit, as after any revocation (services/agents.ts).
 * `from`: move it only while that account still holds it (nothing is revoked when it does not).
 */
export async function moveOwnership(
  trx: Transaction<Database>,
  npi: string,
  accountId: string,
  at: string,
  options: { readonly from?: string; readonly domain?: string } = {},
): Promise<void> {
  let move = trx
    .updateTable("practices")
    .set({
      account_id: accountId,
      ...(options.domain ? { domain: options.domain, website: `https://${options.domain}/` } : {}),
    })
    .where("npi", "=", npi);
  if (options.from !== undefined) move = move.where("account_id", "=", options.from);
  const moved = await move.executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) return;
  for (const table of ["agents", "deploy_tokens"] as const)
    await trx
      .updateTable(table)
      .set({ revoked_at: at })
      .where("npi", "=", npi)
      .where("account_id", "!=", accountId)
      .where("revoked_at", "is", null)
      .execute();
}
