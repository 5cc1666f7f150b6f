import { GROUP_A_PLANS } from "@hcs/protocol";
import { isServiceError, ServiceError } from "../errors.js";
import { authenticateApiKey } from "../services/api-keys.js";
import type { ServiceDeps } from "../services/deps.js";
import type { HcsContext, HcsMiddleware } from "./state.js";

export type ApiGroup = "a" | "b";

function presentedKey(ctx: HcsContext, group: ApiGroup): string | null {
  if (group === "b") return ctx.get("X-API-Key") || null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get("Authorization"));
  return m ? m[1]! : null;
}

/**
 * Resolves the caller's key (Group A: `Authorization: Bearer`, Group B: `X-API-Key`) without refusing yet: the rate
 * limiter must count refused attempts too (by client IP), so `requireCaller` throws the stored error afterwards.
 */
export function identifyCaller(deps: ServiceDeps, group: ApiGroup): HcsMiddleware {
  return async (ctx, next) => {
    const key = presentedKey(ctx, group);
    if (!key) {
      const hint =
        group === "b"
          ? "send your API key in the X-API-Key header"
          : "send your API key as Authorization: Bearer <key>";
      ctx.state.authError = new ServiceError("missing_credentials", hint);
    } else {
      try {
        ctx.state.caller = await authenticateApiKey(deps, key);
      } catch (err) {
        if (!isServiceError(err)) throw err;
        ctx.state.authError = err;
      }
    }
    await next();
  };
}

/** Refuses requests without a valid key; Group A also requires a Professional or Enterprise plan. */
export function requireCaller(group: ApiGroup): HcsMiddleware {
  return async (ctx, next) => {
    const caller = ctx.state.caller;
    if (!caller) throw ctx.state.authError ?? new ServiceError("missing_credentials", "an API key is required");
    if (group === "a" && !GROUP_A_PLANS.includes(caller.plan)) {
      throw new ServiceError(
        "plan_required",
        "practice management (Group A) API access requires a Professional or Enterprise plan",
        {
          plan: caller.plan,
          required: GROUP_A_PLANS,
        },
      );
    }
    await next();
  };
}
