import { RATE_LIMITS } from "@hcs/protocol/schema-free";
import { ServiceError } from "../errors.js";
import { anonymousBucketOf } from "../net/address-bucket.js";
import type { Caller } from "../services/caller.js";

// The rate policy: whose calls count together (the bucket), in which fixed windows, and what a window over its limit
// answers. Pure: counting them is counting.ts's (docs/architecture.md#the-accounting-layer).

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
 * (`anonymousBucketOf`: an IPv6 client per /64 network, net/address-bucket.ts).
 */
export function groupBPolicy(caller: Caller | null, clientIp: string): RatePolicy {
  const perMinute =
    caller?.tier === "bulk" ? RATE_LIMITS.group_b.bulk.per_minute : RATE_LIMITS.group_b.standard.per_minute;
  return {
    bucket: caller ? `b:${callerBucket(caller)}` : `b:ip:${anonymousBucketOf(clientIp)}`,
    windows: [{ limit: perMinute, windowMs: MINUTE }],
  };
}

/** Group A: 100/min and 1000/hour per key (per person for the portal). */
export function groupAPolicy(caller: Caller | null, clientIp: string): RatePolicy {
  return {
    bucket: caller ? `a:${callerBucket(caller)}` : `a:ip:${anonymousBucketOf(clientIp)}`,
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

export const windowStart = (nowMs: number, w: RateWindow) => Math.floor(nowMs / w.windowMs) * w.windowMs;
export const bucketOf = (policy: RatePolicy, w: RateWindow) => `${policy.bucket}:${w.windowMs}`;

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

/** The windows' states from the counts {@link countCalls} gave a call. */
export function windowStates(policy: RatePolicy, nowMs: number, counts: readonly number[]): WindowState[] {
  return policy.windows.map((w, i) => {
    const start = windowStart(nowMs, w);
    return { limit: w.limit, count: counts[i]!, resetAtMs: start + w.windowMs };
  });
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
