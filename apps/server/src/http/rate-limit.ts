import { RATE_LIMITS } from "@hcs/protocol/schema-free";
import { ServiceError } from "../errors.js";
import type { Caller } from "../services/api-keys.js";
import type { ServiceDeps } from "../services/deps.js";
import type { HotExecutor, HotSql } from "../store/hot-sql.js";
import type { RateMirror } from "../store/rate-mirror.js";
import type { BulkWrite } from "../store/write-batcher.js";
import { setHeader } from "./answer.js";
import { anonymousBucketOf } from "./client-address.js";
import type { HcsContext } from "./state.js";

export interface RateWindow {
  readonly limit: number;
  readonly windowMs: number;
}

export interface RatePolicy {
  /** Counter key: `key:<id>` for callers with a key, `user:<id>` for a portal user, `ip:<addr>` otherwise. */
  readonly bucket: string;
  readonly windows: readonly RateWindow[];
}

const MINUTE = 60_000;

/** Whose limits a caller's calls count against: its key, or the portal user who holds none (see Caller). */
const callerBucket = (caller: Caller): string =>
  caller.keyId !== null ? `key:${caller.keyId}` : `user:${caller.portalUserId ?? "unknown"}`;
const HOUR = 3_600_000;

/**
 * Group B: 60/min per key (standard) or 600/min (bulk); calls without a valid key count per client address
 * (`anonymousBucket`: an IPv6 client per /64 network, see client-address.ts).
 */
export function groupBPolicy(caller: Caller | null, anonymousBucket: string): RatePolicy {
  const perMinute =
    caller?.tier === "bulk" ? RATE_LIMITS.group_b.bulk.per_minute : RATE_LIMITS.group_b.standard.per_minute;
  return {
    bucket: caller ? `b:${callerBucket(caller)}` : `b:ip:${anonymousBucket}`,
    windows: [{ limit: perMinute, windowMs: MINUTE }],
  };
}

/** Group A: 100/min and 1000/hour per key (per person for the portal). */
export function groupAPolicy(caller: Caller | null, anonymousBucket: string): RatePolicy {
  return {
    bucket: caller ? `a:${callerBucket(caller)}` : `a:ip:${anonymousBucket}`,
    windows: [
      { limit: RATE_LIMITS.group_a.per_minute, windowMs: MINUTE },
      { limit: RATE_LIMITS.group_a.per_hour, windowMs: HOUR },
    ],
  };
}

export interface WindowState {
  readonly limit: number;
  readonly count: number;
  readonly resetAtMs: number;
}

const windowStart = (nowMs: number, w: RateWindow) => Math.floor(nowMs / w.windowMs) * w.windowMs;
const bucketOf = (policy: RatePolicy, w: RateWindow) => `${policy.bucket}:${w.windowMs}`;

/** The counter row one window of a policy is counted in at a moment. */
export interface WindowCounter {
  readonly bucket: string;
  readonly start: number;
  readonly expiresAt: number;
}

/** The counters a call made at `nowMs` is counted in, in window order (fixed windows aligned to the clock). */
export function windowCounters(policy: RatePolicy, nowMs: number): WindowCounter[] {
  return policy.windows.map((w) => {
    const start = windowStart(nowMs, w);
    return { bucket: bucketOf(policy, w), start, expiresAt: start + w.windowMs };
  });
}

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

/** The windows' states from the counts {@link countCalls} gave a call. */
export function windowStates(policy: RatePolicy, nowMs: number, counts: readonly number[]): WindowState[] {
  return policy.windows.map((w, i) => {
    const start = windowStart(nowMs, w);
    return { limit: w.limit, count: counts[i]!, resetAtMs: start + w.windowMs };
  });
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
 * Counts, in its own group commit, one request that invoked no operation — an unparseable or empty JSON-RPC body, an
 * MCP message that is not a tool call — against the caller's Group B limit (per key, else per client address), so
 * nobody calls the protocol endpoints unlimited.
 */
export function countGroupBRequest(deps: ServiceDeps, caller: Caller | null, clientIp: string): Promise<WindowState[]> {
  return countRequest(deps, groupBPolicy(caller, anonymousBucketOf(clientIp)));
}

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

/**
 * The one window a call's answer reports, in its headers and in a 429's details alike: of the windows over their
 * limit, the one that ends last (the one Retry-After waits for: at Group A's hour cap a client still sending also
 * exceeds the minute, and the hour is what binds); when none is over, the one with the fewest requests left (on a
 * tie, the one that ends last).
 */
export function bindingWindow(windows: readonly WindowState[]): WindowState {
  let binding = windows[0]!;
  for (const w of windows) {
    const over = w.count > w.limit;
    const bindingOver = binding.count > binding.limit;
    if (over !== bindingOver) {
      if (over) binding = w;
      continue;
    }
    const left = Math.max(0, w.limit - w.count);
    const bindingLeft = Math.max(0, binding.limit - binding.count);
    if ((!over && left < bindingLeft) || ((over || left === bindingLeft) && w.resetAtMs > binding.resetAtMs))
      binding = w;
  }
  return binding;
}

/** X-RateLimit-Limit/Remaining/Reset (Reset in Unix epoch seconds) of the binding window (bindingWindow). */
export function setRateHeaders(ctx: HcsContext, windows: readonly WindowState[]): void {
  const binding = windows.length === 1 ? windows[0]! : bindingWindow(windows);
  setHeader(ctx, "X-RateLimit-Limit", String(binding.limit));
  setHeader(ctx, "X-RateLimit-Remaining", String(Math.max(0, binding.limit - binding.count)));
  setHeader(ctx, "X-RateLimit-Reset", String(Math.ceil(binding.resetAtMs / 1000)));
}

/** The 429 for windows that are over their limit (null when none is), with the Retry-After it needs. */
export function rateLimitedError(
  windows: readonly WindowState[],
  nowMs: number,
  message?: string,
): { error: ServiceError; retryAfter: number } | null {
  if (!windows.some((w) => w.count > w.limit)) return null;
  // The window the headers report (setRateHeaders): the body and the headers name the same limit.
  const binding = bindingWindow(windows);
  const retryAfter = Math.max(1, Math.ceil((binding.resetAtMs - nowMs) / 1000));
  return {
    retryAfter,
    error: new ServiceError("rate_limited", message ?? `rate limit exceeded; retry in ${retryAfter} s`, {
      limit: binding.limit,
      retry_after_seconds: retryAfter,
    }),
  };
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
