import {
  CREDIT_PRICES,
  type MeteredOperation,
  PLAN_TABLE,
  type Plan,
  type UsageLine,
  type UsageStatement,
} from "@hcs/protocol";
import { type RawBuilder, sql } from "kysely";
import { RESERVATION_REFUND } from "../operations/invoke.js";
import type { Store } from "../store/store.js";
import type { PlanSpan } from "./account-plans.js";
import type { ServiceDeps } from "./deps.js";

/** A statement period before its figures: which plan, when, and the minimum it commits to. */
export interface StatementPeriod {
  readonly plan: Plan;
  readonly start: string;
  readonly end: string;
  readonly state: "open" | "closed";
  readonly annualMinimum: number;
}

/** The same instant `months` later in UTC (a 29 February start ends on 1 March of a year without one). */
function addMonths(at: string, months: number): string {
  const d = new Date(at);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString();
}

/** More periods than any account can have had (a century of plan years, and plan changes): a guard, not a limit. */
const MAX_PERIODS = 2000;

/**
 * The account's statement periods, oldest first: plan years counted from the start of each plan it has been on (its
 * creation, then each change of plan), a year cut short where the next plan starts. The last is the open one, the
 * year `now` falls in. A period cut short carries its plan's annual minimum pro rata to its length.
 */
export function statementPeriods(spans: readonly PlanSpan[], now: string): StatementPeriod[] {
  const periods: StatementPeriod[] = [];
  const ms = (at: string) => Date.parse(at);
  for (const [i, span] of spans.entries()) {
    const spanEnd = spans[i + 1]?.start ?? null;
    const minimum = PLAN_TABLE.plans[span.plan].annual_minimum;
    let start = span.start;
    while (periods.length < MAX_PERIODS) {
      if (spanEnd !== null && ms(spanEnd) <= ms(start)) break;
      const yearEnd = addMonths(start, PLAN_TABLE.statement_period_months);
      const cut = spanEnd !== null && ms(spanEnd) < ms(yearEnd);
      const end = cut ? spanEnd : yearEnd;
      const annualMinimum = cut ? Math.round((minimum * (ms(end) - ms(start))) / (ms(yearEnd) - ms(start))) : minimum;
      const open = spanEnd === null && ms(now) < ms(end);
      periods.push({ plan: span.plan, start, end, state: open ? "open" : "closed", annualMinimum });
      if (open || cut || end === spanEnd) break;
      start = end;
    }
  }
  return periods;
}

/** Ledger operations that give back what a call was charged, under the call's own reference. */
const REFUNDS = ["refund", RESERVATION_REFUND] as const;
const METERED = new Set<string>(Object.keys(CREDIT_PRICES));

/** `case when created_at < <end of period 0> then 0 … else <last> end`: the period a ledger row falls in. */
function periodOf(periods: readonly StatementPeriod[]): RawBuilder<number> {
  if (periods.length === 1) return sql<number>`0`;
  const whens = periods.slice(0, -1).map((p, i) => sql`when created_at < ${p.end} then ${sql.lit(i)}`);
  return sql<number>`case ${sql.join(whens, sql` `)} else ${sql.lit(periods.length - 1)} end`;
}

/** Refunded calls named in one list at most; beyond it, one grouped read of the whole ledger finds them all. */
const LISTED_REFERENCES = 500;

/**
 * The operation each refunded call was charged as (a refund's own row names only `refund`): by the references listed
 * when they are few (most accounts have none), else by one read grouping the account's ledger by reference. Never a
 * join of the ledger with itself: without an index on references, PostgreSQL may plan one as a nested loop, each
 * refund against every row.
 */
async function chargedOperations(
  deps: ServiceDeps,
  accountId: string,
  references: readonly string[],
): Promise<Map<string, string>> {
  if (references.length === 0) return new Map();
  const rows =
    references.length <= LISTED_REFERENCES
      ? await sql<{ reference: string; operation: string | null }>`
          select reference, min(operation) as operation from credit_ledger
          where account_id = ${accountId} and delta < 0 and reference in (${sql.join([...references])})
          group by reference`.execute(deps.store.db)
      : await sql<{ reference: string; operation: string | null }>`
          select reference, min(case when delta < 0 then operation end) as operation from credit_ledger
          where account_id = ${accountId} and reference is not null
          group by reference
          having max(case when operation in (${sql.join([...REFUNDS])}) then 1 else 0 end) = 1`.execute(deps.store.db);
  return new Map(rows.rows.flatMap((r) => (r.operation ? [[r.reference, r.operation] as const] : [])));
}

interface Tally {
  calls: number;
  charged: number;
  refunded: number;
}

/** Statements last computed per account, per store, with the state of the ledger they were computed from. */
const computed = new WeakMap<Store, Map<string, { readonly key: string; readonly statements: UsageStatement[] }>>();
/** Accounts whose statements a process keeps (the least recently computed are dropped first). */
const KEPT_ACCOUNTS = 1000;

/**
 * The account's statements, computed again only when its ledger changed (or the periods did: a period closing, a
 * plan change). Whether it changed is the count and the last id of its ledger rows — one read of the ledger's
 * (account_id, id) index, read before the figures, so the statements kept are never older than the state they are
 * kept under; a row committed late with a lower id still changes the count. Computing them reads the account's
 * whole ledger (a tenth to a fifth of a second at 100,000 rows: docs/performance.md#account-statements), so this
 * bounds what asking again and again costs when nothing was charged; every change to the ledger is a paid call.
 */
export async function usageStatements(
  deps: ServiceDeps,
  accountId: string,
  periods: readonly StatementPeriod[],
): Promise<UsageStatement[]> {
  const store = deps.store;
  const [state] = (
    await sql<{ n: number | string; last: number | string | null }>`
      select count(*) as n, max(id) as last from credit_ledger where account_id = ${accountId}`.execute(store.db)
  ).rows;
  const key = `${state?.n ?? 0}:${state?.last ?? ""}|${periods.map((p) => `${p.plan},${p.start},${p.end},${p.state},${p.annualMinimum}`).join("|")}`;
  const kept = computed.get(store) ?? new Map();
  computed.set(store, kept);
  const known = kept.get(accountId);
  if (known?.key === key) return known.statements;
  const statements = await statementsFromLedger(deps, accountId, periods);
  kept.delete(accountId);
  if (kept.size >= KEPT_ACCOUNTS) kept.delete(kept.keys().next().value!);
  kept.set(accountId, { key, statements });
  return statements;
}

/**
 * One statement per period, from the account's credit ledger alone: each metered operation's charges (calls are
 * ledger references: a batch, or a reservation and its settlement, is one call) and the refunds of those calls
 * (a failed scan's `refund`, an unused `reservation_refund`), counted in the period the refund was written in; the
 * credits added (opening balance, grants); the balances at the period's start and end. Two or three grouped reads
 * of the account's ledger rows, whatever the number of periods; not on any call's path but the account's own.
 */
async function statementsFromLedger(
  deps: ServiceDeps,
  accountId: string,
  periods: readonly StatementPeriod[],
): Promise<UsageStatement[]> {
  const db = deps.store.db;
  const period = periodOf(periods);
  const movementsRead = sql<{
    period: number;
    operation: string;
    debit: number;
    refs: number | string;
    total: number | string;
  }>`
      select ${period} as period, operation, case when delta < 0 then 1 else 0 end as debit,
        count(distinct reference) as refs, sum(delta) as total
      from credit_ledger where account_id = ${accountId}
      group by 1, 2, 3`.execute(db);
  // The refunds, then which operation charged each refunded call, while the movements are read.
  const refundsRead = sql<{ period: number; reference: string | null; total: number | string }>`
      select ${period} as period, reference, sum(delta) as total
      from credit_ledger where account_id = ${accountId} and operation in (${sql.join([...REFUNDS])})
      group by 1, 2`
    .execute(db)
    .then(async (refunds) => {
      const references = [...new Set(refunds.rows.flatMap((r) => (r.reference ? [r.reference] : [])))];
      return { refunds, chargedAs: await chargedOperations(deps, accountId, references) };
    });
  const [movements, { refunds, chargedAs }] = await Promise.all([movementsRead, refundsRead]);
  const tallies = periods.map(() => new Map<string, Tally>());
  const added = periods.map(() => 0);
  const moved = periods.map(() => 0);
  const tally = (i: number, operation: string): Tally => {
    const known = tallies[i]!.get(operation);
    if (known) return known;
    const t = { calls: 0, charged: 0, refunded: 0 };
    tallies[i]!.set(operation, t);
    return t;
  };
  for (const r of movements.rows) {
    const i = Number(r.period);
    const total = Number(r.total);
    moved[i]! += total;
    if (Number(r.debit) === 1) {
      const t = tally(i, r.operation);
      t.calls += Number(r.refs);
      t.charged -= total;
    } else if (!(REFUNDS as readonly string[]).includes(r.operation)) {
      added[i]! += total;
    }
  }
  for (const r of refunds.rows) {
    const i = Number(r.period);
    const operation = r.reference === null ? undefined : chargedAs.get(r.reference);
    // A refund of no charge this ledger holds cannot be a call's: it is counted as credits added.
    if (operation === undefined || !METERED.has(operation)) added[i]! += Number(r.total);
    else tally(i, operation).refunded += Number(r.total);
  }
  let balance = 0;
  return periods.map((p, i) => {
    const usage: UsageLine[] = (Object.keys(CREDIT_PRICES) as MeteredOperation[]).flatMap((operation) => {
      const t = tallies[i]!.get(operation);
      return t
        ? [{ operation, calls: t.calls, charged: t.charged, refunded: t.refunded, credits: t.charged - t.refunded }]
        : [];
    });
    const usageCredits = usage.reduce((sum, l) => sum + l.credits, 0);
    const opening = balance;
    balance += moved[i]!;
    return {
      start: p.start,
      end: p.end,
      state: p.state,
      plan: p.plan,
      usage,
      usage_credits: usageCredits,
      annual_minimum: p.annualMinimum,
      minimum_shortfall: Math.max(0, p.annualMinimum - usageCredits),
      credits_added: added[i]!,
      opening_balance: opening,
      closing_balance: balance,
    };
  });
}
