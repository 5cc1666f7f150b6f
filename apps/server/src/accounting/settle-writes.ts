import { httpStatusFor } from "@hcs/protocol/schema-free";
import { type AuditEvent, appendAuditEvents, outcomeOf } from "../services/audit.js";
import type { HotExecutor, HotSql } from "../store/hot-sql.js";
import { countCalls } from "./counting.js";
import { type Charge, type ChargeResult, chargeAll } from "./credits.js";
import { type RatePolicy, rateLimitedError, type WindowCounter, windowStates } from "./rate-policy.js";

/**
 * What one call's settlement writes, decided before it is written: plain data only (PostgreSQL's writer sends it
 * to the database as one JSON argument).
 */
export interface SettlementWrite {
  /** The policy the call is counted under, and the counters it is counted in (both null: not counted). */
  readonly rate: RatePolicy | null;
  readonly counters: WindowCounter[] | null;
  readonly nowMs: number;
  /** The credits to take if the call is not over its limit (null: nothing to take). */
  readonly charge: Charge | null;
  /** The call's status and error code as answered (unless its settlement vetoes it). */
  readonly status: number;
  readonly code: string | null;
  /**
   * The call's audit event (null: not audited whichever way it ends), and which of the ways it can end are audited:
   * as answered, refused by the rate limit (429), refused for a short balance (402). The way it ended sets the
   * event's status, code and outcome. One event with flags, not three.
   */
  readonly audit: {
    readonly event: AuditEvent;
    readonly answered: boolean;
    readonly limited: boolean;
    readonly short: boolean;
  } | null;
}

/** What the store said while writing a settlement: the call's counts, and the charge's outcome when one was tried. */
export interface SettlementWritten {
  readonly counts: number[] | null;
  readonly charge: ChargeResult | null;
}

/**
 * The settlements of one group commit, written as if each call were settled in turn — with one upsert for the
 * group's rate-limit counters, one conditional update per charged account, and one insert for the ledger rows and
 * one for the audit events, however many calls the group holds (a 50-entry JSON-RPC batch settles as one group).
 * A call over its limit is not charged; its event is the 429's, a call whose balance falls short gets the 402's.
 * Runs inside the group's transaction. PostgreSQL writes its groups
 * with one call of a database function instead (settle-group-postgres.ts), with the same meaning: a change here is
 * a change there (operations/settle.case.test.ts runs the same expectations on both engines).
 */
export async function writeSettlements(
  hot: HotSql,
  trx: HotExecutor,
  items: readonly SettlementWrite[],
): Promise<SettlementWritten[]> {
  const counts = await countCalls(
    hot,
    trx,
    items.map((i) => i.counters),
  );
  const limited = items.map((item, i) =>
    item.rate ? rateLimitedError(windowStates(item.rate, item.nowMs, counts[i]!), item.nowMs) !== null : false,
  );
  const charged = items.flatMap((item, i) => (item.charge && item.charge.amount > 0 && !limited[i] ? [i] : []));
  const results = await chargeAll(
    hot,
    trx,
    charged.map((i) => items[i]!.charge!),
  );
  const charges: (ChargeResult | null)[] = items.map(() => null);
  for (const [k, i] of charged.entries()) charges[i] = results[k]!;
  await appendAuditEvents(
    hot,
    trx,
    items.flatMap((item, i) => {
      const audit = item.audit;
      if (!audit) return [];
      if (limited[i]) return audit.limited ? [endedAs(audit.event, LIMITED, "rate_limited")] : [];
      if (charges[i] && !charges[i]!.charged)
        return audit.short ? [endedAs(audit.event, SHORT, "insufficient_credits")] : [];
      return audit.answered ? [endedAs(audit.event, item.status, item.code)] : [];
    }),
  );
  return items.map((_, i) => ({ counts: counts[i] ?? null, charge: charges[i] ?? null }));
}

export const LIMITED = httpStatusFor("rate_limited");
export const SHORT = httpStatusFor("insufficient_credits");

/** The event of a call that ended with `status` and `code` (null: success). */
export function endedAs(event: AuditEvent, status: number, code: string | null): AuditEvent {
  if (event.status === status && event.code === code) return event;
  return { ...event, status, code, outcome: outcomeOf(status) };
}
