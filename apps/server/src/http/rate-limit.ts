import { RATE_LIMITS } from "@hcs/protocol";
import { sql } from "kysely";
import { ServiceError } from "../errors.js";
import type { ServiceDeps } from "../services/deps.js";
import type { HcsContext, HcsMiddleware } from "./state.js";

export interface RateWindow {
  readonly limit: number;
  readonly windowMs: number;
}

export interface RatePolicy {
  /** Counter key: `key:<id>` for authenticated callers, `ip:<addr>` otherwise. */
  readonly bucket: string;
  readonly windows: readonly RateWindow[];
}

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** Group B: 60/min per key (standard) or 600/min (bulk); unauthenticated attempts count per client IP. */
export function groupBPolicy(ctx: HcsContext): RatePolicy {
  const c = ctx.state.caller;
  const perMinute = c?.tier === "bulk" ? RATE_LIMITS.group_b.bulk.per_minute : RATE_LIMITS.group_b.standard.per_minute;
  return { bucket: c ? `b:key:${c.keyId}` : `b:ip:${ctx.ip}`, windows: [{ limit: perMinute, windowMs: MINUTE }] };
}

/** Group A: 100/min and 1000/hour per key. */
export function groupAPolicy(ctx: HcsContext): RatePolicy {
  const c = ctx.state.caller;
  return {
    bucket: c ? `a:key:${c.keyId}` : `a:ip:${ctx.ip}`,
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

/**
 * Counts one request against each window of the policy. Fixed windows aligned to the clock, counters in the
 * store (one upsert per window, in the group-commit batch) so every server process shares them.
 */
export async function countRequest(deps: ServiceDeps, policy: RatePolicy): Promise<WindowState[]> {
  const nowMs = deps.now().getTime();
  return deps.store.writes.run(async (trx) => {
    const out: WindowState[] = [];
    for (const w of policy.windows) {
      const start = Math.floor(nowMs / w.windowMs) * w.windowMs;
      const bucket = `${policy.bucket}:${w.windowMs}`;
      const row = await trx
        .insertInto("rate_limits")
        .values({ bucket, window_start: start, count: 1, expires_at: start + w.windowMs })
        .onConflict((oc) => oc.columns(["bucket", "window_start"]).doUpdateSet({ count: sql`rate_limits.count + 1` }))
        .returning("count")
        .executeTakeFirstOrThrow();
      out.push({ limit: w.limit, count: Number(row.count), resetAtMs: start + w.windowMs });
    }
    return out;
  });
}

/**
 * Rate-limit middleware: counts the request, sets X-RateLimit-Limit/Remaining/Reset (Reset in Unix epoch seconds)
 * on the response — errors included, since the error mapper keeps headers — and answers 429 with Retry-After
 * when a window is exhausted.
 */
export function rateLimit(deps: ServiceDeps, policyOf: (ctx: HcsContext) => RatePolicy): HcsMiddleware {
  return async (ctx, next) => {
    const windows = await countRequest(deps, policyOf(ctx));
    // The tightest window is the one reported.
    const tightest = windows.reduce((a, b) => (b.limit - b.count < a.limit - a.count ? b : a));
    ctx.set("X-RateLimit-Limit", String(tightest.limit));
    ctx.set("X-RateLimit-Remaining", String(Math.max(0, tightest.limit - tightest.count)));
    ctx.set("X-RateLimit-Reset", String(Math.ceil(tightest.resetAtMs / 1000)));
    const exceeded = windows.filter((w) => w.count > w.limit);
    if (exceeded.length > 0) {
      const resetAt = Math.max(...exceeded.map((w) => w.resetAtMs));
      const retryAfter = Math.max(1, Math.ceil((resetAt - deps.now().getTime()) / 1000));
      ctx.set("Retry-After", String(retryAfter));
      throw new ServiceError("rate_limited", `rate limit exceeded; retry in ${retryAfter} s`, {
        limit: exceeded[0]!.limit,
        retry_after_seconds: retryAfter,
      });
    }
    await next();
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
