import { type AuditEvent, auditEventIdentity, newAuditSalt, storedDuration } from "../services/audit.js";
import type { Executor, HotSql } from "../store/hot-sql.js";
import { UnexpectedWriteAnswer } from "../store/write-batcher.js";
import type { ChargeResult } from "./credits.js";
import type { WindowCounter } from "./rate-policy.js";
import { endedAs, LIMITED, type SettlementWrite, type SettlementWritten, SHORT } from "./settle-writes.js";

/**
 * PostgreSQL: the settlements of one group commit in one statement, `hcs_settle_group` (migration 023), with the
 * meaning of writeSettlements (settle-writes.ts) — each call counted in turn, a call over its limit not charged and audited as
 * the 429, charges taken in turn until a balance runs short (402), one ledger row per charge, the events in order.
 * A group commit was seven round trips (BEGIN, counters, credits, ledger, events, context, COMMIT), each waking a
 * backend on a busy machine; sent on its own (`executor` the pool, not a transaction) this is one, and the statement
 * is its own transaction: PostgreSQL runs a statement sent outside BEGIN in an implicit transaction that commits
 * when it completes, before the answer is sent, so the group's writes are durable together or not at all.
 * Everything that does not depend on the rows is decided here, so the function only counts, charges and inserts.
 */
export async function writeSettlementGroup(
  hot: HotSql,
  executor: Executor,
  items: readonly SettlementWrite[],
): Promise<SettlementWritten[]> {
  const group = groupOf(items);
  const [row] = await hot.all<{ settled: SettledGroup }>(executor, SETTLE, [JSON.stringify(group.argument)]);
  const settled = row?.settled;
  if (!settled || settled.n.length !== group.totals.length || settled.c.length !== items.length)
    throw new UnexpectedWriteAnswer("hcs_settle_group answered the wrong number of counters or calls");
  return items.map((item, i) => ({
    // The count the call saw: the counter's count before the group, plus its place among the group's calls there.
    counts: item.counters ? group.places[i]!.map(([k, place]) => settled.n[k]! - group.totals[k]! + place) : null,
    charge: chargeOf(settled.c[i] ?? null),
  }));
}

const SETTLE = "select hcs_settle_group(?::jsonb) as settled";

/** What the function answers: each counter's count after the group, and each call's charge (null: none tried). */
interface SettledGroup {
  readonly n: number[];
  readonly c: ([boolean, number] | null)[];
}

const chargeOf = (c: [boolean, number] | null): ChargeResult | null =>
  c === null ? null : c[0] ? { charged: true, balance: c[1] } : { charged: false, balance: c[1] };

/** A call's place in its counters: [index of the counter in the group, 1 for the group's first call counted there]. */
type Place = readonly [number, number];

/**
 * The function's argument (see migration 023): counters aggregated in key order and accounts in id order — the
 * order every writer locks their rows in (countCalls, chargeAll), so two processes' groups cannot deadlock — and
 * each call's counters, charge and the ways its event can end.
 */
function groupOf(items: readonly SettlementWrite[]) {
  const keyOf = (c: WindowCounter) => `${c.bucket}@${c.start}`;
  const counted = new Map<string, { counter: WindowCounter; n: number }>();
  const accounts = new Set<string>();
  for (const item of items) {
    for (const c of item.counters ?? []) {
      const t = counted.get(keyOf(c));
      if (t) t.n++;
      else counted.set(keyOf(c), { counter: c, n: 1 });
    }
    if (item.charge && item.charge.amount > 0) accounts.add(item.charge.accountId);
  }
  const keys = [...counted.keys()].sort();
  const indexOf = new Map(keys.map((key, k) => [key, k]));
  const totals = keys.map((key) => counted.get(key)!.n);
  const seen = new Map<string, number>();
  const places = items.map((item) =>
    (item.counters ?? []).map((c): Place => {
      const place = (seen.get(keyOf(c)) ?? 0) + 1;
      seen.set(keyOf(c), place);
      return [indexOf.get(keyOf(c))!, place];
    }),
  );
  const calls = items.map((item, i) => callOf(item, places[i]!));
  const n = keys.map((key) => {
    const { counter, n } = counted.get(key)!;
    return [counter.bucket, counter.start, n, counter.expiresAt];
  });
  return { argument: { n, a: [...accounts].sort(), c: calls }, totals, places };
}

/** One call as the function takes it (keys absent when the call has no such part). */
function callOf(item: SettlementWrite, places: readonly Place[]): Record<string, unknown> {
  const call: Record<string, unknown> = {};
  // A call is limited when a window's count exceeds its limit (rateLimitedError); windows and counters share order.
  if (item.counters) call.k = places.map(([k, place], j) => [k, place, item.rate ? item.rate.windows[j]!.limit : null]);
  const charge = item.charge;
  if (charge && charge.amount > 0)
    call.ch = [charge.accountId, charge.amount, charge.operation, charge.reference, charge.at];
  const audit = item.audit;
  if (audit) {
    const e = audit.event;
    call.e = [...auditEventIdentity(e), newAuditSalt(), e.client_ip, storedDuration(e)];
    if (audit.answered) call.ea = ending(endedAs(e, item.status, item.code));
    if (audit.limited) call.el = ending(endedAs(e, LIMITED, "rate_limited"));
    if (audit.short) call.es = ending(endedAs(e, SHORT, "insufficient_credits"));
  }
  return call;
}

const ending = (e: AuditEvent) => [e.status, e.code, e.outcome];
