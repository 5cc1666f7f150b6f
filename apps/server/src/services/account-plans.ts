import type { Plan, Tier } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import type { AuditInTransaction } from "./audit.js";
import { iso, type ServiceDeps } from "./deps.js";

/** One plan an account has been on, from `start` until the next one's. */
export interface PlanSpan {
  readonly plan: Plan;
  readonly start: string;
}

/** What `setAccountPlan` did. */
export interface PlanChange {
  readonly accountId: string;
  readonly plan: Plan;
  readonly tier: Tier;
  readonly previous: { readonly plan: Plan; readonly tier: Tier };
  /** True when the plan changed: a new statement period (plan year) starts now. A tier change alone starts none. */
  readonly newPeriod: boolean;
  readonly at: string;
}

/**
 * Puts an account on a plan (and, when given, a rate-limit tier). A change of plan is recorded in account_plans,
 * starting a new plan year for its usage statements; the account's keys get the new plan and tier on their next
 * call (migration 021's trigger tells every server's key cache). `auditIn` is written in the same transaction; an
 * unchanged plan and tier are still recorded (as a revocation of a revoked key is).
 */
export async function setAccountPlan(
  deps: ServiceDeps,
  input: { accountId: string; plan: Plan; tier?: Tier },
  auditIn?: AuditInTransaction<PlanChange>,
): Promise<PlanChange> {
  const at = iso(deps.now());
  return deps.store.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("accounts")
      .select(["plan", "tier"])
      .where("id", "=", input.accountId)
      .executeTakeFirst();
    if (!row) throw new ServiceError("not_found", `no account ${input.accountId}`);
    const previous = { plan: row.plan as Plan, tier: row.tier as Tier };
    const tier = input.tier ?? previous.tier;
    await trx.updateTable("accounts").set({ plan: input.plan, tier }).where("id", "=", input.accountId).execute();
    const newPeriod = input.plan !== previous.plan;
    if (newPeriod)
      await trx
        .insertInto("account_plans")
        .values({ account_id: input.accountId, plan: input.plan, started_at: at })
        .execute();
    const change: PlanChange = { accountId: input.accountId, plan: input.plan, tier, previous, newPeriod, at };
    await auditIn?.(trx, change);
    return change;
  });
}

/** The plans the account has been on, oldest first (at least one: the plan it was created on). */
export async function planHistory(deps: ServiceDeps, accountId: string): Promise<PlanSpan[]> {
  const rows = await deps.store.db
    .selectFrom("account_plans")
    .select(["plan", "started_at"])
    .where("account_id", "=", accountId)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ plan: r.plan as Plan, start: r.started_at }));
}
