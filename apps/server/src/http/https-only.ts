import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ServiceError } from "../errors.js";
import { forwardedProtoOf } from "./client-address.js";
import { errorBody } from "./error-body.js";
import type { HcsMiddleware } from "./state.js";

const REFUSAL = "this service is reachable over HTTPS only";

/**
 * Behind a trusted TLS-terminating proxy (HCS_TRUST_PROXY) a request the outermost trusted proxy received over
 * plain HTTP is refused. Direct connections reach the app only through the TLS listener.
 */
export function httpsOnly(): HcsMiddleware {
  return async (ctx, next) => {
    const proto = forwardedProtoOf(ctx.get("X-Forwarded-Proto"), ctx.state.trustedHops);
    if (proto !== null && proto !== "https") throw new ServiceError("https_required", REFUSAL);
    await next();
  };
}

/**
 * The handler of the optional plain-HTTP listener: every request gets 403 https_required and nothing else runs
 * (no routing, no body read, no auth). The body is discarded and the connection closed.
 */
export function plainHttpRefuser(): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const body = JSON.stringify(errorBody("https_required", REFUSAL, randomUUID()));
    req.resume();
    res.writeHead(403, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
      Connection: "close",
    });
    res.end(body);
  };
}
