import { httpStatusFor } from "@hcs/protocol";
import type { ServiceError } from "../errors.js";
import {
  countCalls,
  mirrorCounts,
  type RatePolicy,
  rateLimitedError,
  type WindowCounter,
  type WindowState,
  windowCounters,
  windowStates,
} from "../http/rate-limit.js";
import { type AuditEvent, appendAuditEvents } from "../services/audit.js";
import { insufficientCredits } from "../services/credit-errors.js";
import { chargeAll } from "../services/credits.js";
import type { ServiceDeps } from "../services/deps.js";
import type { HotSql } from "../store/hot-sql.js";
import type { RateMirror } from "../store/rate-mirror.js";
import type { BulkWrite } from "../store/write-batcher.js";

/** What one call's settlement transaction must do (each part optional). */
export interface SettlementPlan {
  /** Count the call against these windows now (calls that change nothing are counted here, not before). */
  readonly rate: RatePolicy | null;
  /** Take these credits (the call succeeded); a short balance turns the answer into 402. */
  readonly charge: { readonly accountId: string; readonly operation: string; readonly credits: number } | null;
  /**
   * The audit event for the call's final status and error code, or null when the call is not audited (or was
   * audited inline).
   */
  readonly audit: (status: number, code: string | null) => AuditEvent | null;
  /** The status the call will answer with unless the settlement vetoes it, and its error code (null: success). */
  readonly status: number;
  readonly code: string | null;
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
  return plan.rate === null && plan.charge === null && plan.audit(plan.status, plan.code) === null;
}

/**
 * Settles one call, written after its answer is decided and before it is sent: the rate-limit count, the credits
 * of a metered operation and the audit event with the final status, in one transaction. Calls settled in one
 * event-loop turn share the transaction (group commit, DESIGN §4) and are written together (see
 * {@link settlements}). The count may turn the answer into a 429 and a short balance into a 402 — in both cases
 * nothing is charged. If the transaction fails, nothing of it happened and the caller must fail the call.
 */
export function settle(deps: ServiceDeps, plan: SettlementPlan): Promise<Settled> {
  const counters = plan.rate ? windowCounters(plan.rate, plan.nowMs) : null;
  return deps.store.writes.runInBulk(settlements, { hot: deps.store.hot, rates: deps.store.rates, plan, counters });
}

/**
 * The settlements of one group commit, written as if each call were settled in turn — with one upsert per
 * rate-limit counter, one conditional update per charged account, and one insert for the ledger rows and one for
 * the audit events, however many calls the group holds (a 50-entry JSON-RPC batch settles as one group).
 */
const settlements: BulkWrite<
  {
    readonly hot: HotSql;
    readonly rates: RateMirror;
    readonly plan: SettlementPlan;
    /** The counters the call is counted in (null: not counted), computed once for the write and the mirror. */
    readonly counters: WindowCounter[] | null;
  },
  Settled
> = {
  async run(trx, items) {
    const hot = items[0]!.hot;
    const plans = items.map((i) => i.plan);
    const counts = await countCalls(
      hot,
      trx,
      items.map((i) => i.counters),
    );
    const settled = plans.map((plan, i) => {
      const windows = plan.rate ? windowStates(plan.rate, plan.nowMs, counts[i]!) : null;
      const limited = windows ? rateLimitedError(windows, plan.nowMs) : null;
      return { windows, limited, veto: limited?.error ?? null, balance: null as number | null };
    });
    const charged = plans.flatMap((plan, i) =>
      plan.charge && plan.charge.credits > 0 && !settled[i]!.veto ? [i] : [],
    );
    const results = await chargeAll(
      hot,
      trx,
      charged.map((i) => {
        const { charge, reference, nowMs } = plans[i]!;
        return {
          accountId: charge!.accountId,
          amount: charge!.credits,
          operation: charge!.operation,
          reference,
          at: new Date(nowMs).toISOString(),
        };
      }),
    );
    for (const [k, i] of charged.entries()) {
      const r = results[k]!;
      settled[i]!.balance = r.balance;
      if (!r.charged) settled[i]!.veto = insufficientCredits(plans[i]!.charge!.credits, r.balance);
    }
    await appendAuditEvents(
      hot,
      trx,
      plans.flatMap((plan, i) => {
        const veto = settled[i]!.veto;
        const event = veto ? plan.audit(httpStatusFor(veto.code), veto.code) : plan.audit(plan.status, plan.code);
        return event ? [event] : [];
      }),
    );
    return settled;
  },
  committed({ rates, plan, counters }, settled) {
    if (counters && settled.windows) {
      mirrorCounts(
        rates,
        counters,
        settled.windows.map((w) => w.count),
        plan.nowMs,
      );
    }
  },
};
