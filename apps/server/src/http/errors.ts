import { type ErrorCode, httpStatusFor } from "@hcs/protocol";
import type { Logger } from "pino";
import { isServiceError } from "../errors.js";
import { isStoreUnavailable, STORE_RETRY_AFTER_SECONDS, storeUnavailableError } from "../store/availability.js";
import { errorBody } from "./error-body.js";
import type { HcsContext, HcsMiddleware } from "./state.js";

// Koa and router errors carry a status; these are the ones a client can cause.
const STATUS_CODES: Record<number, ErrorCode> = {
  400: "invalid_body",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
  415: "unsupported_media_type",
  501: "method_not_allowed",
};

/**
 * Turns every failure into the error body (docs/api.md#errors): ServiceErrors keep their code and message; a store that
 * did not answer becomes 503 `unavailable` with Retry-After; anything unexpected becomes 500 `internal` with only the
 * request id (the cause goes to the log, never to the client).
 */
export function errorMapper(logger: Logger): HcsMiddleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      answerError(ctx, err, logger);
    }
  };
}

/** errorMapper's answer to an error the rest of the pipeline threw (also used where requests skip Koa's chain). */
export function answerError(ctx: HcsContext, err: unknown, logger: Logger): void {
  if (isStoreUnavailable(err)) {
    // The store timed out or lost its connection: a retryable 503.
    logger.warn({ err, request_id: ctx.state.requestId, path: ctx.path }, "store unavailable");
    const failure = storeUnavailableError();
    ctx.status = 503;
    ctx.set("Retry-After", String(STORE_RETRY_AFTER_SECONDS));
    ctx.body = errorBody(failure.code, failure.message, ctx.state.requestId, failure.details);
    return;
  }
  if (isServiceError(err)) {
    ctx.status = httpStatusFor(err.code);
    ctx.body = errorBody(err.code, err.message, ctx.state.requestId, err.details);
    return;
  }
  const status = (err as { status?: unknown }).status;
  const known = typeof status === "number" ? STATUS_CODES[status] : undefined;
  if (known) {
    ctx.status = httpStatusFor(known);
    if (known === "method_not_allowed") {
      const allow = (err as { headers?: Record<string, string> }).headers?.Allow;
      if (allow) ctx.set("Allow", allow);
    }
    ctx.body = errorBody(
      known,
      known === "method_not_allowed"
        ? `${ctx.method} is not allowed on ${ctx.path}`
        : "the request could not be processed",
      ctx.state.requestId,
    );
    return;
  }
  logger.error({ err, request_id: ctx.state.requestId, path: ctx.path }, "unhandled error");
  ctx.status = 500;
  ctx.body = errorBody("internal", "internal error; quote the request id when reporting it", ctx.state.requestId);
}
