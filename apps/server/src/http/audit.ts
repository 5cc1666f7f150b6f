import type { Logger } from "pino";
import { appendAuditEvent, outcomeOf } from "../services/audit.js";
import type { ServiceDeps } from "../services/deps.js";
import { errorBody } from "./error-body.js";
import type { HcsMiddleware } from "./state.js";

/**
 * Writes an audit event for every request after its response is decided and before it is sent, so the trail is
 * durable before the client sees the answer. Events hold ids, never keys or bodies. If the event cannot be
 * written the request fails closed with 500.
 */
export function auditTrail(deps: ServiceDeps, logger: Logger): HcsMiddleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const route = (ctx as unknown as { _matchedRoute?: string | RegExp })._matchedRoute;
      const event = {
        at: deps.now().toISOString(),
        request_id: ctx.state.requestId,
        actor_key_id: ctx.state.caller?.keyId ?? null,
        actor_account_id: ctx.state.caller?.accountId ?? null,
        action: `${ctx.method} ${typeof route === "string" ? route : "(unmatched)"}`,
        resource: ctx.state.auditResource,
        outcome: outcomeOf(ctx.status),
        status: ctx.status,
        client_ip: ctx.ip,
        duration_ms: durationMs,
      };
      try {
        await deps.store.writes.run((trx) => appendAuditEvent(trx, event));
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
