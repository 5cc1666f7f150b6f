import { randomUUID } from "node:crypto";
import type { HcsMiddleware } from "./state.js";

/** Gives every request an id (X-Request-Id on the response) that error bodies, logs and audit events share. */
export function requestId(generate: () => string = randomUUID): HcsMiddleware {
  return async (ctx, next) => {
    ctx.state.requestId = generate();
    ctx.state.caller = null;
    ctx.state.authError = null;
    ctx.state.auditResource = null;
    ctx.state.rawBody = null;
    ctx.state.auditInline = null;
    ctx.state.settlement = { rate: null, charge: null };
    ctx.set("X-Request-Id", ctx.state.requestId);
    await next();
  };
}
