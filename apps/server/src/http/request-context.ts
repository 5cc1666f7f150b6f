import { randomUUID } from "node:crypto";
import { setHeader } from "./answer.js";
import { type ClientAddress, clientAddressOf, type TrustProxy } from "./client-address.js";
import type { HcsContext, HcsMiddleware } from "./state.js";

/**
 * First in the pipeline: gives every request its id (X-Request-Id on the response, shared by error bodies, logs
 * and audit events), resolves the client's address once — from the socket, or from X-Forwarded-For as far as
 * trusted proxies vouch for it — and initialises the per-request state. The address is read here, before any
 * body is read, because a request destroyed later (an oversized body) no longer has a socket to ask.
 */
export function requestContext(trust: TrustProxy, generateId: () => string = randomUUID): HcsMiddleware {
  return async (ctx, next) => {
    beginRequest(ctx, trust, generateId);
    await next();
  };
}

/** What requestContext does before the rest of the pipeline, for a request served without Koa's middleware chain. */
export function beginRequest(ctx: HcsContext, trust: TrustProxy, generateId: () => string = randomUUID): void {
  const client: ClientAddress = clientAddressOf(ctx.req.socket.remoteAddress, ctx.get("X-Forwarded-For"), trust);
  ctx.state.requestId = generateId();
  ctx.state.clientIp = client.ip;
  ctx.state.trustedHops = client.trustedHops;
  ctx.state.caller = null;
  ctx.state.rawBody = null;
  ctx.state.route = null;
  setHeader(ctx, "X-Request-Id", ctx.state.requestId);
}
