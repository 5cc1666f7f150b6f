import { httpStatusFor } from "@hcs/protocol";
import type { Logger } from "pino";
import type { ServiceError } from "../errors.js";
import { type AuditEvent, appendAuditEvent, outcomeOf } from "../services/audit.js";
import { insufficientCredits } from "../services/credit-errors.js";
import { chargeCredits } from "../services/credits.js";
import type { ServiceDeps } from "../services/deps.js";
import { isStoreUnavailable, STORE_RETRY_AFTER_SECONDS, storeUnavailableError } from "../store/availability.js";
import { errorBody } from "./error-body.js";
import { incrementWindows, rateLimitedError, setRateHeaders } from "./rate-limit.js";
import type { HcsContext, HcsMiddleware } from "./state.js";

function eventOf(ctx: HcsContext, deps: ServiceDeps, status: number, durationMs: number): AuditEvent {
  const route = (ctx as unknown as { _matchedRoute?: string | RegExp })._matchedRoute;
  return {
    at: deps.now().toISOString(),
    request_id: ctx.state.requestId,
    actor_key_id: ctx.state.caller?.keyId ?? null,
    actor_account_id: ctx.state.caller?.accountId ?? null,
    action: `${ctx.method} ${typeof route === "string" ? route : "(unmatched)"}`,
    resource: ctx.state.auditResource,
    outcome: outcomeOf(status),
    status,
    client_ip: ctx.state.clientIp,
    duration_ms: durationMs,
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * What becomes an audit event (docs/security.md, "Audit trail"): every request made with credentials (an API
 * key, whatever the outcome), and every request that changed state (a key issued, a scanner registered, a scan
 * uploaded — authenticated by a deploy token or an agent signature rather than a key). Anonymous requests that
 * changed nothing — refused credentials, bad input, unknown paths, public documents, health probes — are counted
 * in metrics by route and status instead, so a flood of them cannot grow the trail without bound.
 */
export function isAuditable(ctx: HcsContext, status: number): boolean {
  if (ctx.state.caller !== null) return true;
  return !SAFE_METHODS.has(ctx.method) && status < 400;
}

/**
 * Settles every request in one transaction, written after its response is decided and before it is sent, so the
 * trail is durable before the client sees the answer: the rate-limit count of a settleable request (GET), the
 * credits of a metered operation, and the audit event with the final status. Requests of one event-loop turn share
 * the transaction (group commit). The count may turn the response into a 429 and a failed charge into a 402 — in
 * both cases nothing is charged. Events hold ids, never keys or bodies. If the transaction fails the request fails
 * closed: 503 `unavailable` when the store did not answer (timeouts, lost connections), else 500. A request the
 * store already failed to serve writes nothing more (it would only wait out the same timeout again). A handler that commits its own decisive write (a dispatched job) may write the event in that
 * transaction through `ctx.state.auditInline`.
 */
export function auditTrail(deps: ServiceDeps, logger: Logger): HcsMiddleware {
  const { hot } = deps.store;
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    let inlineStatus: number | null = null;
    ctx.state.auditInline = async (trx, status) => {
      await appendAuditEvent(hot, trx, eventOf(ctx, deps, status, elapsed()));
      inlineStatus = status;
    };
    try {
      await next();
    } finally {
      const { rate, charge } = ctx.state.settlement;
      const caller = ctx.state.caller;
      const nowMs = deps.now().getTime();
      // A request whose handler already wrote its event inline, with nothing to count or charge, has nothing left
      // to settle: skipping the empty transaction spares it a group-commit turn.
      const settles = rate !== null || (charge !== null && caller !== null && ctx.status < 400);
      const audits = (status: number) => inlineStatus !== status && isAuditable(ctx, status);
      if (!ctx.state.storeFailed && (settles || audits(ctx.status))) {
        try {
          const settled = await deps.store.writes.run(async (trx) => {
            const windows = rate ? await incrementWindows(hot, trx, rate, nowMs) : null;
            const limited = windows ? rateLimitedError(windows, nowMs) : null;
            let veto: ServiceError | null = limited?.error ?? null;
            let balance: number | null = null;
            if (!veto && charge && caller && ctx.status < 400) {
              const c = await chargeCredits(hot, trx, {
                accountId: caller.accountId,
                amount: charge.price,
                operation: charge.operation,
                reference: ctx.state.requestId,
                at: new Date(nowMs).toISOString(),
              });
              balance = c.balance;
              if (!c.charged) veto = insufficientCredits(charge.price, c.balance);
            }
            const status = veto ? httpStatusFor(veto.code) : ctx.status;
            if (audits(status)) await appendAuditEvent(hot, trx, eventOf(ctx, deps, status, elapsed()));
            return { windows, limited, veto, balance };
          });
          if (settled.windows) setRateHeaders(ctx, settled.windows);
          if (settled.limited) ctx.set("Retry-After", String(settled.limited.retryAfter));
          if (settled.veto) {
            ctx.status = httpStatusFor(settled.veto.code);
            ctx.body = errorBody(settled.veto.code, settled.veto.message, ctx.state.requestId, settled.veto.details);
          } else if (charge && settled.balance !== null) {
            ctx.set("X-Credits-Charged", String(charge.price));
            ctx.set("X-Credits-Remaining", String(settled.balance));
          }
        } catch (err) {
          const unavailable = isStoreUnavailable(err);
          logger.error(
            { err, request_id: ctx.state.requestId, status: ctx.status },
            "request could not be settled (audit event not written); answered with an error instead",
          );
          const failure = unavailable ? storeUnavailableError() : null;
          ctx.status = failure ? 503 : 500;
          ctx.remove("X-Credits-Charged");
          ctx.remove("X-Credits-Remaining");
          if (failure) ctx.set("Retry-After", String(STORE_RETRY_AFTER_SECONDS));
          ctx.body = failure
            ? errorBody(failure.code, failure.message, ctx.state.requestId, failure.details)
            : errorBody("internal", "internal error; quote the request id when reporting it", ctx.state.requestId);
        }
      }
      logger.info(
        {
          request_id: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round(elapsed() * 10) / 10,
          key_id: caller?.keyId,
        },
        "request",
      );
    }
  };
}
