import type { ParameterizedContext } from "koa";
import type { Caller } from "../services/caller.js";

/** Per-request state the HTTP layer shares (Koa's ctx.state); everything else belongs to the invocation. */
export interface HcsState {
  requestId: string;
  /** The client's address (see client-address.ts): what rate limits, free-key limits and audit events use. */
  clientIp: string;
  /** Trusted proxies the request came through (0 for a direct connection). */
  trustedHops: number;
  /** The authenticated key, when the request presented a valid one (for the request log and metrics). */
  caller: Caller | null;
  /** Raw request body once read. */
  rawBody: Buffer | null;
  /**
   * The path template of the route serving the request (`/v1/a2a/grade/:npi`), null until one does: set by the
   * route itself (http/route-template.ts, http/hot-routes.ts), read by the metrics, which label requests with it.
   */
  route: string | null;
}

export type HcsContext = ParameterizedContext<HcsState>;
export type HcsMiddleware = (ctx: HcsContext, next: () => Promise<unknown>) => Promise<unknown>;
