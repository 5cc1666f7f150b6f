import type { ServiceDeps } from "../services/deps.js";
import type { HotExecutor, HotSql } from "../store/hot-sql.js";
import type { RateMirror } from "../store/rate-mirror.js";
import type { BulkWrite } from "../store/write-batcher.js";
import {
  bucketOf,
  type RatePolicy,
  type WindowCounter,
  type WindowState,
  windowCounters,
  windowStart,
  windowStates,
} from "./rate-policy.js";

// Counting calls in the store's rate_limits table, shared by every server process, and the quick read before a call
// runs (docs/architecture.md#the-accounting-layer).

/**
 * Counts calls inside a group transaction: `calls[i]` lists the counters of call i (null: not counted). Counted in
 * the store, so every server process shares them, with one upsert per counter however many calls of the group it
 * counts (in key order, so two processes' groups take the rows' locks in the same order); each call gets the counts
 * it would have seen counting itself, in order, as if each had run `count = count + 1` in turn.
 */
export async function countCalls(
  hot: HotSql,
  trx: HotExecutor,
  calls: readonly (readonly WindowCounter[] | null)[],
): Promise<(number[] | null)[]> {
  const keyOf = (c: WindowCounter) => `${c.bucket}@${c.start}`;
  const totals = new Map<string, { counter: WindowCounter; n: number }>();
  for (const counters of calls) {
    for (const c of counters ?? []) {
      const t = totals.get(keyOf(c));
      if (t) t.n++;
      else totals.set(keyOf(c), { counter: c, n: 1 });
    }
  }
  // One upsert for every counter of the group (a round trip each was most of a PostgreSQL group commit's time), in
  // key order: rows are locked in the order of the VALUES list, so two processes' groups cannot deadlock.
  const sorted = [...totals.keys()].sort();
  const next = new Map<string, number>();
  for (let i = 0; i < sorted.length; i += UPSERT_CHUNK) {
    const chunk = sorted.slice(i, i + UPSERT_CHUNK).map((key) => totals.get(key)!);
    // Hot path (every Group A/B call, coalesced per group).
    const rows = await hot.all<{ bucket: string; window_start: number; count: number }>(
      trx,
      upsertText(chunk.length),
      chunk.flatMap(({ counter, n }) => [counter.bucket, counter.start, n, counter.expiresAt]),
    );
    // RETURNING promises no order (SQLite): rows are told apart by their key.
    const counts = new Map(rows.map((r) => [`${r.bucket}@${Number(r.window_start)}`, Number(r.count)]));
    for (const { counter, n } of chunk) {
      const key = keyOf(counter);
      const count = counts.get(key);
      if (count === undefined) throw new Error("rate-limit upsert returned no row for a counter");
      next.set(key, count - n + 1);
    }
  }
  return calls.map(
    (counters) =>
      counters?.map((c) => {
        const value = next.get(keyOf(c))!;
        next.set(keyOf(c), value + 1);
        return value;
      }) ?? null,
  );
}

/** Most counters one upsert carries (statement texts stay few: one per size up to it). */
const UPSERT_CHUNK = 64;
const upsertTexts: string[] = [];

function upsertText(rows: number): string {
  upsertTexts[rows] ??=
    `insert into rate_limits (bucket, window_start, count, expires_at) values ${Array.from({ length: rows }, () => "(?, ?, ?, ?)").join(", ")} ` +
    "on conflict (bucket, window_start) do update set count = rate_limits.count + excluded.count " +
    "returning bucket, window_start, count";
  return upsertTexts[rows]!;
}

/** Counts one request now, in the next group commit (for requests whose effects cannot be undone later). */
export async function countRequest(deps: ServiceDeps, policy: RatePolicy): Promise<WindowState[]> {
  const nowMs = deps.now().getTime();
  const counts = await deps.store.writes.runInBulk(windowCounting, {
    hot: deps.store.hot,
    rates: deps.store.rates,
    nowMs,
    counters: windowCounters(policy, nowMs),
  });
  return windowStates(policy, nowMs, counts);
}

/** Counts a call's settlement or its own counting got, once committed, for the quick read (see wouldExceed). */
export function mirrorCounts(
  rates: RateMirror,
  counters: readonly WindowCounter[],
  counts: readonly number[],
  nowMs: number,
): void {
  for (const [i, c] of counters.entries()) rates.observe(c.bucket, c.start, counts[i]!, nowMs);
}

/** Requests counted on their own (before they run), grouped per group commit like settlements. */
const windowCounting: BulkWrite<
  { hot: HotSql; rates: RateMirror; nowMs: number; counters: WindowCounter[] },
  number[]
> = {
  async run(trx, items) {
    return (await countCalls(
      items[0]!.hot,
      trx,
      items.map((i) => i.counters),
    )) as number[][];
  },
  committed(item, counts) {
    mirrorCounts(item.rates, item.counters, counts, item.nowMs);
  },
};

/**
 * True when a window would be exceeded by one more request, from the committed counts (a read, no write): the
 * counts this process last saw committed (store/rate-mirror.ts), else the store's, remembered for the next call.
 */
export async function wouldExceed(deps: ServiceDeps, policy: RatePolicy): Promise<boolean> {
  const nowMs = deps.now().getTime();
  const rates = deps.store.rates;
  for (const w of policy.windows) {
    const bucket = bucketOf(policy, w);
    const start = windowStart(nowMs, w);
    let count = rates.get(bucket, start);
    if (count === undefined) {
      const [row] = await deps.store.hot.all<{ count: number }>(
        deps.store.db,
        "select count from rate_limits where bucket = ? and window_start = ?",
        [bucket, start],
      );
      count = row ? Number(row.count) : 0;
      rates.observe(bucket, start, count, nowMs);
    }
    if (count >= w.limit) return true;
  }
  return false;
}

/** Deletes counters of windows that have ended (run periodically). */
export async function pruneRateLimits(deps: ServiceDeps): Promise<number> {
  const r = await deps.store.db
    .deleteFrom("rate_limits")
    .where("expires_at", "<", deps.now().getTime())
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * The windows of a policy as the store has counted them now, without counting anything (what `GET /v1/a2a/account`
 * reports): the store's committed counts, not this process's mirror, so every process's calls are in them.
 */
export async function countedWindows(deps: ServiceDeps, policy: RatePolicy): Promise<WindowState[]> {
  const nowMs = deps.now().getTime();
  return Promise.all(
    windowCounters(policy, nowMs).map(async (c, i) => {
      const [row] = await deps.store.hot.all<{ count: number }>(
        deps.store.db,
        "select count from rate_limits where bucket = ? and window_start = ?",
        [c.bucket, c.start],
      );
      return { limit: policy.windows[i]!.limit, count: row ? Number(row.count) : 0, resetAtMs: c.expiresAt };
    }),
  );
}
