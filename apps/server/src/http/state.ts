import type { MeteredOperation } from "@hcs/protocol";
import type { ParameterizedContext } from "koa";
import type { Transaction } from "kysely";
import type { ServiceError } from "../errors.js";
import type { Caller } from "../services/api-keys.js";
import type { Database } from "../store/schema.js";
import type { RatePolicy } from "./rate-limit.js";

/** Per-request state every middleware shares (Koa's ctx.state). */
export interface HcsState {
  requestId: string;
  /** The client's address (see client-address.ts): what rate limits, free-key limits and audit events use. */
  clientIp: string;
  /** Trusted proxies the request came through (0 for a direct connection). */
  trustedHops: number;
  /** Set when the store failed to serve this request (answered 503): nothing more is written for it. */
  storeFailed: boolean;
  /** The authenticated key, once the auth middleware accepted one. */
  caller: Caller | null;
  /** Why credentials were refused; thrown by requireCaller after rate limiting has counted the attempt. */
  authError: ServiceError | null;
  /** What the request acted on, for the audit trail (set by routes). */
  auditResource: string | null;
  /** Raw request body once read (kept for signature checks). */
  rawBody: Buffer | null;
  /**
   * Writes this request's audit event inside a transaction the handler is committing anyway (the credit charge
   * that decides the response), saving a group commit. Set by the audit middleware.
   */
  auditInline: ((trx: Transaction<Database>, status: number) => Promise<void>) | null;
  /**
   * What the request's final transaction (written by the audit middleware before the response is sent) must do
   * besides the audit event: count the request against its rate-limit windows, and take the credits of a metered
   * operation. Either may turn the response into a 429 or a 402.
   */
  settlement: Settlement;
}

export interface Settlement {
  rate: RatePolicy | null;
  charge: { readonly operation: MeteredOperation; readonly price: number } | null;
}

export type HcsContext = ParameterizedContext<HcsState>;
export type HcsMiddleware = (ctx: HcsContext, next: () => Promise<unknown>) => Promise<unknown>;
