import { httpStatusFor } from "@hcs/protocol";
import type { ServiceError } from "../errors.js";
import type { AuditEvent } from "../services/audit.js";
import type { ServiceDeps } from "../services/deps.js";
import type { Executor, HotSql } from "../store/hot-sql.js";
import type { Engine } from "../store/migrations/engine.js";
import type { BulkWrite } from "../store/write-batcher.js";
import { mirrorCounts } from "./counting.js";
import { insufficientCredits } from "./credit-errors.js";
import { type RatePolicy, rateLimitedError, type WindowState, windowCounters, windowStates } from "./rate-policy.js";
import { writeSettlementGroup } from "./settle-group-postgres.js";
import { type SettlementWrite, type SettlementWritten, writeSettlements } from "./settle-writes.js";

/** What one call's settlement transaction must do (each part optional). */
export interface SettlementPlan {
  /** Count the call against these windows now (calls that change nothing are counted here, not before). */
  readonly rate: RatePolicy | null;
  /** Take these credits (the call succeeded); a short balance turns the answer into 402. */
  readonly charge: { readonly accountId: string; readonly operation: string; readonly credits: number } | null;
  /** The call's audit event for each way it can end (an object, not two closures: the plan is made per call). */
  readonly audit: AuditSource;
  /** The status the call will answer with unless the settlement vetoes it, and its error code (null: success). */
  readonly status: number;
  readonly code: string | null;
  /** Ledger reference of the charge (the request id). */
  readonly reference: string;
  readonly nowMs: number;
}

/** How a call is audited: whether it is for a final status, and its event for that status and error code. */
export interface AuditSource {
  /** Whether the call is audited if it ends with `status` (what `event` answers null for, without building it). */
  audits(status: number): boolean;
  /** The event for the call's final status and error code, or null when not audited (or audited inline). */
  event(status: number, code: string | null): AuditEvent | null;
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
  return plan.rate === null && plan.charge === null && !plan.audit.audits(plan.status);
}

/**
 * Settles one call, written after its answer is decided and before it is sent: the rate-limit count, the credits
 * of a metered operation and the audit event with the final status, in one transaction. Calls settled in one
 * event-loop turn share the transaction (group commit, docs/architecture.md#4-settle) and are written together (see
 * {@link writeSettlements}) by the engine's writer in {@link SETTLEMENT_WRITERS}: on PostgreSQL one call of a
 * database function (settle-group-postgres.ts). The count may turn the answer into a 429 and a short balance into a
 * 402 — in both cases nothing is charged. If the transaction fails, nothing of it happened and the caller must fail the call.
 */
export async function settle(deps: ServiceDeps, plan: SettlementPlan): Promise<Settled> {
  const write = settlementWriteOf(plan);
  const written = await deps.store.writes.runInBulk(SETTLEMENT_WRITERS[deps.store.engine], {
    hot: deps.store.hot,
    write,
  });
  // The counts are committed: the quick read of the next calls may use them (before this caller goes on).
  if (write.counters && written.counts) mirrorCounts(deps.store.rates, write.counters, written.counts, write.nowMs);
  return settledOf(write, written);
}

/** The write a plan asks for: its counters, its charge and the audit event of each way the call can end. */
function settlementWriteOf(plan: SettlementPlan): SettlementWrite {
  return {
    rate: plan.rate,
    counters: plan.rate ? windowCounters(plan.rate, plan.nowMs) : null,
    nowMs: plan.nowMs,
    charge: plan.charge
      ? {
          accountId: plan.charge.accountId,
          amount: plan.charge.credits,
          operation: plan.charge.operation,
          reference: plan.reference,
          at: new Date(plan.nowMs).toISOString(),
        }
      : null,
    status: plan.status,
    code: plan.code,
    audit: auditOf(plan),
  };
}

const LIMITED = httpStatusFor("rate_limited");
const SHORT = httpStatusFor("insufficient_credits");

/** The plan's audit event and the ways of ending it audits (see SettlementWrite.audit). */
function auditOf(plan: SettlementPlan): SettlementWrite["audit"] {
  const source = plan.audit;
  const answered = source.audits(plan.status);
  const limited = plan.rate !== null && source.audits(LIMITED);
  const short = plan.charge !== null && source.audits(SHORT);
  // One event, built for the first way it is audited; the writer sets the status of the way the call ended.
  const event = answered
    ? source.event(plan.status, plan.code)
    : limited
      ? source.event(LIMITED, "rate_limited")
      : short
        ? source.event(SHORT, "insufficient_credits")
        : null;
  return event ? { event, answered, limited, short } : null;
}

/** The call's settlement as the store wrote it: its windows, and the veto (429 or 402) if it got one. */
function settledOf(write: SettlementWrite, written: SettlementWritten): Settled {
  const windows = write.rate && written.counts ? windowStates(write.rate, write.nowMs, written.counts) : null;
  const limited = windows ? rateLimitedError(windows, write.nowMs) : null;
  const charge = written.charge;
  const short = charge && !charge.charged ? insufficientCredits(write.charge!.amount, charge.balance) : null;
  return { windows, limited, veto: limited?.error ?? short, balance: charge?.balance ?? null };
}

/** The settlements of one group commit as portable statements (the store's group commit transaction). */
const settlementWrites: BulkWrite<{ readonly hot: HotSql; readonly write: SettlementWrite }, SettlementWritten> = {
  run: (trx, items) =>
    writeSettlements(
      items[0]!.hot,
      trx,
      items.map((i) => i.write),
    ),
};

/**
 * PostgreSQL's settlements of one group commit: one statement (see {@link writeSettlementGroup}) — sent on its own,
 * its own transaction and one round trip; when the batch also holds other writes, one statement of its transaction.
 */
const settlementGroup = (executor: Executor, items: readonly { hot: HotSql; write: SettlementWrite }[]) =>
  writeSettlementGroup(
    items[0]!.hot,
    executor,
    items.map((i) => i.write),
  );
const settlementGroups: BulkWrite<{ readonly hot: HotSql; readonly write: SettlementWrite }, SettlementWritten> = {
  run: settlementGroup,
  runAlone: settlementGroup,
};

/**
 * Each engine's settlement writer, the one place the engines' settlements differ: SQLite runs the portable statements
 * inside the store's group transaction; PostgreSQL sends the group as one call of `hcs_settle_group` (one round trip
 * instead of seven: docs/performance.md#postgresql-one-round-trip-per-settlement-group). A registry, not a branch:
 * a third engine is a row here, and no call chooses among writers.
 */
export const SETTLEMENT_WRITERS: Readonly<
  Record<Engine, BulkWrite<{ readonly hot: HotSql; readonly write: SettlementWrite }, SettlementWritten>>
> = { sqlite: settlementWrites, postgres: settlementGroups };
