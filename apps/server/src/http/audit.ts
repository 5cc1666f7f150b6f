import type { Logger } from "pino";
import { type AuditEvent, appendAuditEvent, outcomeOf } from "../services/audit.js";
import type { ServiceDeps } from "../services/deps.js";
import { errorBody } from "./error-body.js";
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
    client_ip: ctx.ip,
    duration_ms: durationMs,
  };
}

/**
 * Writes an audit event for every request after its response is decided and before it is sent, so the trail is
 * durable before the client sees the answer. Events hold ids, never keys or bodies. If the event cannot be
 * written the request fails closed with 500. A handler that commits the write deciding its response (a credit
 * charge) may write the event in that same transaction through `ctx.state.auditInline`.
 */
export function auditTrail(deps: ServiceDeps, logger: Logger): HcsMiddleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    let inlineStatus: number | null = null;
    ctx.state.auditInline = async (trx, status) => {
      await appendAuditEvent(trx, eventOf(ctx, deps, status, elapsed()));
      inlineStatus = status;
    };
    try {
      await next();
    } finally {
      const durationMs = elapsed();
      try {
        // Written already with the status the response has: nothing left to record.
        if (inlineStatus !== ctx.status)
          await deps.store.writes.run((trx) => appendAuditEvent(trx, eventOf(ctx, deps, ctx.status, durationMs)));
      } catch (err) {
        logger.error({ err, request_id: ctx.state.requestId }, "audit event could not be written");
        ctx.status = 500;
        ctx.body = errorBody("internal", "internal error; quote the request id when reporting it", ctx.state.requestId);
      }
      logger.info(
        {
          request_id: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round(durationMs * 10) / 10,
          key_id: ctx.state.caller?.keyId,
        },
        "request",
      );
    }
  };
}
