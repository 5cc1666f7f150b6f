import { httpStatusFor } from "@hcs/protocol";
import type { ServiceError } from "../errors.js";
import {
  type RatePolicy,
  rateLimitedError,
  type WindowState,
  windowCounters,
  windowStates,
} from "../http/rate-limit.js";
import { type AuditEvent, appendAuditEvent } from "../services/audit.js";
import { insufficientCredits } from "../services/credit-errors.js";
import { chargeCredits } from "../services/credits.js";
import type { ServiceDeps } from "../services/deps.js";

/** What one call's settlement transaction must do (each part optional). */
export interface SettlementPlan {
  /** Count the call against these windows now (calls that change nothing are counted here, not before). */
  readonly rate: RatePolicy | null;
  /** Take these credits (the call succeeded); a short balance turns the answer into 402. */
  readonly charge: { readonly accountId: string; readonly operation: string; readonly credits: number } | null;
  /** The audit event for the call's final status, or null when the call is not audited (or was audited inline). */
  readonly audit: (status: number) => AuditEvent | null;
  /** The status the call will answer with unless the settlement vetoes it. */
  readonly status: number;
  /** Ledger reference of the charge (the request id). */
  readonly reference: string;
  readonly nowMs: number;
}

export interface Settled {
  /** The windows after counting (null when nothing was counted). */
  readonly windows: WindowState[] | null;
  /** The call was over its limit: 429 with this Retry-After. */
  readonly limited: { readonly error: ServiceError; readonly retryAfter: number } | null;
  /** Why the answer changed: 429 or 402 (nothing was charged then). */
  readonly veto: ServiceError | null;
  /** The balance after the charge, when one was taken. */
  readonly balance: number | null;
}

/** True when a plan has nothing to write (no count, no charge, no event): the call skips the group commit. */
export function isEmptyPlan(plan: SettlementPlan): boolean {
  return plan.rate === null && plan.charge === null && plan.audit(plan.status) === null;
}

/**
 * Settles one call in one transaction, written after its answer is decided and before it is sent: the rate-limit
 * count, the credits of a metered operation and the audit event with the final status. Calls settled in one
 * event-loop turn share the transaction (group commit, DESIGN §4). The count may turn the answer into a 429 and a
 * short balance into a 402 — in both cases nothing is charged. If the transaction fails, nothing of it happened and
 * the caller must fail the call.
 */
export function settle(deps: ServiceDeps, plan: SettlementPlan): Promise<Settled> {
  const { hot } = deps.store;
  const rate = plan.rate;
  return deps.store.writes.run(
    async (trx, counts) => {
      const windows = rate ? windowStates(rate, plan.nowMs, counts) : null;
      const limited = windows ? rateLimitedError(windows, plan.nowMs) : null;
      let veto: ServiceError | null = limited?.error ?? null;
      let balance: number | null = null;
      if (!veto && plan.charge && plan.charge.credits > 0) {
        const c = await chargeCredits(hot, trx, {
          accountId: plan.charge.accountId,
          amount: plan.charge.credits,
          operation: plan.charge.operation,
          reference: plan.reference,
          at: new Date(plan.nowMs).toISOString(),
        });
        balance = c.balance;
        if (!c.charged) veto = insufficientCredits(plan.charge.credits, c.balance);
      }
      const event = plan.audit(veto ? httpStatusFor(veto.code) : plan.status);
      if (event) await appendAuditEvent(hot, trx, event);
      return { windows, limited, veto, balance };
    },
    rate ? windowCounters(hot, rate, plan.nowMs) : [],
  );
}
