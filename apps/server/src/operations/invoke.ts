import { CREDIT_PRICES, GROUP_A_PLANS, httpStatusFor } from "@hcs/protocol";
import type { Transaction } from "kysely";
import {
  type AuditSource,
  chargeCredits,
  countRequest,
  grantCredits,
  groupAPolicy,
  groupBPolicy,
  insufficientCredits,
  isEmptyPlan,
  type RatePolicy,
  rateLimitedError,
  type Settled,
  type SettlementPlan,
  settle,
  type WindowState,
  withUpgradeContact,
  wouldExceed,
} from "../accounting/index.js";
import type { AppDeps } from "../app-deps.js";
import { isServiceError, ServiceError } from "../errors.js";
import { type AuditEvent, appendAuditEvent, outcomeOf } from "../services/audit.js";
import type { Caller } from "../services/caller.js";
import { isStoreUnavailable, STORE_RETRY_AFTER_SECONDS, storeUnavailableError } from "../store/availability.js";
import type { Database } from "../store/schema.js";
import { enforceAccess } from "./access.js";
import { inputError } from "./input-errors.js";
import { type Operation, type OperationCall, PreserializedJson, type Transport } from "./operation.js";

/** The credentials a transport found on the request: the caller, or why a presented key was refused. */
export interface Credentials {
  readonly caller: Caller | null;
  /** missing_credentials, invalid_credentials or key_revoked — raised only if the operation needs a key. */
  readonly refused: ServiceError | null;
}

export interface Invocation {
  readonly operation: Operation;
  /** The raw input, fetched only once the call is authorized and counted (a refused call's body is never read). */
  readonly input: () => unknown;
  readonly credentials: Credentials;
  readonly transport: Transport;
  readonly requestId: string;
  readonly clientIp: string;
  /** The contextId of the A2A message that carried the call (see OperationCall). */
  readonly a2aContextId?: string;
  /** Checks that must pass before the input is read (https behind a proxy, the announced body size). */
  readonly guard?: () => void;
  /** The client connection's signal (OperationCall.clientSignal), made when the handler first asks. */
  readonly clientSignal?: () => AbortSignal;
  /**
   * The quick read that refuses a caller already over its limit before a call that changes nothing runs (default:
   * one read per call). A JSON-RPC batch shares one read per bucket between its entries: each entry is still
   * counted, and refused if over the limit, in its own settlement.
   */
  readonly overLimit?: (policy: RatePolicy) => Promise<boolean>;
}

/** What the caller's transport needs to answer: the outcome and the accounting that goes with it. */
export interface CallMeta {
  /** Rate-limit windows after this call was counted (null when it was not counted: public operations). */
  readonly rate: readonly WindowState[] | null;
  readonly retryAfter: number | null;
  /** Credits taken by this call and the balance after, when it was charged. */
  readonly charged: { readonly credits: number; readonly balance: number } | null;
}

export type InvokeResult =
  | ({ readonly ok: true; readonly output: unknown } & CallMeta)
  | ({ readonly ok: false; readonly error: ServiceError } & CallMeta);

/** The rate-limit policy a call is counted under (null: public operations are not limited). */
function policyFor(operation: Operation, caller: Caller | null, clientIp: string): RatePolicy | null {
  switch (operation.group) {
    case "a":
    case "a-open":
      return groupAPolicy(caller, clientIp);
    case "b":
    case "b-open":
      return groupBPolicy(caller, clientIp);
    default:
      return null;
  }
}

/** Refuses a call whose credentials do not fit the operation (after it has been counted). */
function authorize(operation: Operation, credentials: Credentials): Caller | null {
  if (operation.group !== "a" && operation.group !== "b") return credentials.caller;
  const caller = credentials.caller;
  if (!caller) {
    throw (
      credentials.refused ??
      new ServiceError(
        "missing_credentials",
        operation.group === "a"
          ? "send your API key as Authorization: Bearer <key>"
          : "send your API key in the X-API-Key header",
      )
    );
  }
  if (operation.group === "a" && !GROUP_A_PLANS.includes(caller.plan)) {
    throw new ServiceError(
      "plan_required",
      "practice management (Group A) API access requires a Professional or Enterprise plan",
      { plan: caller.plan, required: GROUP_A_PLANS },
    );
  }
  return caller;
}

/** Credits a successful call costs when the settlement takes them (0 when the handler charged, or nothing is due). */
function creditsOf(operation: Operation, input: unknown, output: unknown): number {
  const price = operation.price;
  if (!price || price.kind === "charged_by_handler") return 0;
  if (price.kind === "metered") return price.unchargedWhen?.(output) ? 0 : CREDIT_PRICES[price.operation];
  const value = output instanceof PreserializedJson ? output.value() : output;
  return (price.credits as (i: unknown, o: unknown) => number)(input, value);
}

/**
 * Every call of every operation, whatever transport carried it: count against the rate limit → authorize →
 * validate → access rule → run → settle (the rate-limit count of a call that changes nothing, the charge of a metered
 * one, and the audit event named by operation and transport, in one group commit, before the answer is sent; see
 * docs/architecture.md#one-pipeline). Never throws: the result says what to answer. A refused call is still counted,
 * so guessing keys is rate-limited too.
 */
export function invoke(deps: AppDeps, inv: Invocation): Promise<InvokeResult> {
  return new Call(deps, inv).run();
}

/**
 * One invocation's state and steps. A class rather than closures over `invoke`'s locals: every call of the hot path
 * made eight closures and their shared context, the largest single share of what the serving thread allocated per
 * grade lookup (sampling heap profile, docs/performance.md#less-allocation-per-request); methods on a prototype cost
 * nothing per call. It is also the call's AuditSource (its settlement plan's events) and the OperationCall its handler
 * gets.
 */
class Call implements AuditSource, OperationCall {
  private readonly started = process.hrtime.bigint();
  private readonly operation: Operation;
  private readonly policy: RatePolicy | null;
  private resource: string | null = null;
  private inlineStatus: number | null = null;
  private windows: WindowState[] | null = null;
  private countInSettlement = false;
  /** Credits taken by `reserve` so far, and the balance after the last take. */
  private reserved = 0;
  private balanceAfterReserve = 0;
  /** What a `charged_by_handler` handler reported taking. */
  private handlerCharge: { credits: number; balance: number } | null = null;
  private signal: AbortSignal | null | undefined;
  readonly caller: Caller | null;
  readonly transport: Transport;
  readonly requestId: string;
  readonly clientIp: string;
  readonly a2aContextId: string | null;

  constructor(
    readonly deps: AppDeps,
    private readonly inv: Invocation,
  ) {
    this.operation = inv.operation;
    this.caller = inv.credentials.caller;
    this.transport = inv.transport;
    this.requestId = inv.requestId;
    this.clientIp = inv.clientIp;
    this.a2aContextId = inv.a2aContextId ?? null;
    this.policy = policyFor(inv.operation, this.caller, inv.clientIp);
  }

  // OperationCall: what the handler may do besides returning its output.
  get clientSignal(): AbortSignal | null {
    if (this.signal === undefined) this.signal = this.inv.clientSignal?.() ?? null;
    return this.signal;
  }

  setResource(resource: string): void {
    this.resource = resource;
  }

  async auditIn(trx: Transaction<Database>, status: number): Promise<void> {
    const event = this.event(status, null);
    if (event) await appendAuditEvent(this.deps.store.hot, trx, event);
    this.inlineStatus = status;
  }

  async reserve(credits: number): Promise<void> {
    const caller = this.caller;
    const price = this.operation.price;
    if (!caller || !price) throw new Error(`${this.operation.id}: only a priced call made with a key reserves credits`);
    if (!Number.isInteger(credits) || credits <= 0) return;
    const taken = await this.deps.store.writes.run((trx) =>
      chargeCredits(this.deps.store.hot, trx, {
        accountId: caller.accountId,
        amount: credits,
        operation: price.operation,
        reference: this.requestId,
        at: this.deps.now().toISOString(),
      }),
    );
    if (!taken.charged) throw insufficientCredits(this.reserved + credits, taken.balance + this.reserved);
    this.reserved += credits;
    this.balanceAfterReserve = taken.balance;
  }

  charged(credits: number, balance: number): void {
    this.handlerCharge = { credits, balance };
  }

  /**
   * Settles what `reserve` took against what the call costs (`due`; 0 when it failed): refunds the rest with a ledger
   * row under the call's reference, and says what the settlement itself must still take (when the price came to
   * more than was reserved) and the balance after.
   */
  private async settleReservation(due: number): Promise<{ extra: number; balance: number }> {
    const unused = this.reserved - due;
    if (unused <= 0) return { extra: -unused, balance: this.balanceAfterReserve };
    const accountId = this.caller!.accountId;
    const balance = await this.deps.store.writes.run((trx) =>
      grantCredits(trx, {
        accountId,
        amount: unused,
        operation: RESERVATION_REFUND,
        reference: this.requestId,
        at: this.deps.now().toISOString(),
      }),
    );
    this.reserved = due;
    return { extra: 0, balance };
  }

  // AuditSource. Calls made with a key are audited whatever their outcome; anonymous ones only when they changed
  // something.
  audits(status: number): boolean {
    return this.inlineStatus !== status && !(this.caller === null && (this.operation.readOnly || status >= 400));
  }

  event(status: number, code: string | null): AuditEvent | null {
    if (!this.audits(status)) return null;
    const caller = this.caller;
    return {
      at: this.deps.now().toISOString(),
      request_id: this.requestId,
      actor_key_id: caller?.keyId ?? null,
      actor_account_id: caller?.accountId ?? null,
      // A portal user holds no key: the person is named as every portal event names them (docs/portal.md).
      ...(caller?.portalUserId ? { actor_operator: `user:${caller.portalUserId}` } : {}),
      action: this.operation.method ?? this.operation.id,
      transport: this.transport,
      resource: this.resource,
      outcome: outcomeOf(status),
      status,
      code,
      client_ip: this.clientIp,
      duration_ms: Number(process.hrtime.bigint() - this.started) / 1e6,
    };
  }

  async run(): Promise<InvokeResult> {
    const { deps, inv, operation, policy } = this;
    try {
      // Counting: a call that changes nothing is counted in its settlement (a quick read refuses callers already
      // over the limit; the settlement refuses, uncharged, one that raced past the read). A call that may act at
      // once (create a job, issue a key) is counted before it runs.
      if (policy) {
        if (operation.readOnly) {
          this.countInSettlement = true;
          const over = inv.overLimit ? await inv.overLimit(policy) : await wouldExceed(deps, policy);
          if (over) throw new ServiceError("rate_limited", "rate limit exceeded");
        } else {
          this.windows = await countRequest(deps, policy);
          const limited = rateLimitedError(this.windows, deps.now().getTime());
          if (limited) return await this.fail(limited.error, limited.retryAfter);
        }
      }
      const who = authorize(operation, inv.credentials);
      inv.guard?.();
      const raw = await inv.input();
      const parsed = operation.input.safeParse(raw);
      if (!parsed.success) {
        const query = inv.transport === "rest" && operation.rest?.method === "get";
        throw inputError(parsed.error, raw, operation.inputErrors, query ? "invalid_query" : "invalid_body");
      }
      // Only an owner's rule reads anything (the hot path's public lookups skip the await).
      if (operation.access.rule === "owner")
        await enforceAccess(deps, operation.access, parsed.data, who?.accountId ?? null);
      const output = await operation.run(parsed.data, this);
      const credits = who ? creditsOf(operation, parsed.data, output) : 0;
      // A reservation pays for the call first; the settlement takes only what the price came to beyond it.
      const reservation = this.reserved > 0 ? await this.settleReservation(credits) : null;
      const due = reservation ? reservation.extra : credits;
      const charge =
        due > 0 && who ? { accountId: who.accountId, operation: operation.price!.operation, credits: due } : null;
      const plan = this.plan(operation.rest?.status ?? 200, null, charge);
      const prepaid = reservation && credits > 0 ? { credits, balance: reservation.balance } : this.handlerCharge;
      if (isEmptyPlan(plan)) return { ok: true, output, rate: this.windows, retryAfter: null, charged: prepaid };
      let settled: Settled;
      try {
        settled = await settle(deps, plan);
      } catch (err) {
        return this.settlementFailed(err);
      }
      if (settled.veto) return { ok: false, error: this.answered(settled.veto), ...this.meta(settled, null) };
      return {
        ok: true,
        output,
        rate: settled.windows ?? this.windows,
        retryAfter: null,
        charged: charge ? { credits, balance: settled.balance ?? 0 } : prepaid,
      };
    } catch (err) {
      return this.failWith(err);
    }
  }

  /** The call's settlement: its count (if counted there), the charge, and this call as its audit source. */
  private plan(status: number, code: string | null, charge: SettlementPlan["charge"]): SettlementPlan {
    return {
      rate: this.countInSettlement ? this.policy : null,
      charge,
      audit: this,
      status,
      code,
      reference: this.requestId,
      nowMs: this.deps.now().getTime(),
    };
  }

  private meta(settled: Settled | null, retryAfter: number | null): CallMeta {
    return {
      rate: settled?.windows ?? this.windows,
      retryAfter: settled?.limited?.retryAfter ?? retryAfter,
      charged: null,
    };
  }

  /** A refusal as the caller gets it: one that points to an upgrade names where to ask (withUpgradeContact). */
  private answered(error: ServiceError): ServiceError {
    return withUpgradeContact(error, this.deps.config.contactEmail);
  }

  /** Settles a failed call (its count, its audit event, the refund of what it reserved) and reports the failure. */
  private async fail(failure: ServiceError, retryAfter: number | null = null): Promise<InvokeResult> {
    const error = this.answered(failure);
    if (this.reserved > 0) {
      try {
        await this.settleReservation(0);
      } catch (err) {
        return this.settlementFailed(err);
      }
    }
    const plan = this.plan(httpStatusFor(error.code), error.code, null);
    if (isEmptyPlan(plan)) return { ok: false, error, ...this.meta(null, retryAfter) };
    try {
      const settled = await settle(this.deps, plan);
      return { ok: false, error: settled.veto ?? error, ...this.meta(settled, retryAfter) };
    } catch (err) {
      return this.settlementFailed(err);
    }
  }

  private settlementFailed(err: unknown): InvokeResult {
    this.deps.logger.error(
      { err, request_id: this.requestId, action: this.operation.method ?? this.operation.id },
      "call could not be settled (audit event not written); answered with an error instead",
    );
    const unavailable = isStoreUnavailable(err);
    return {
      ok: false,
      error: unavailable
        ? storeUnavailableError()
        : new ServiceError("internal", "internal error; quote the request id when reporting it"),
      rate: this.windows,
      retryAfter: unavailable ? STORE_RETRY_AFTER_SECONDS : null,
      charged: null,
    };
  }

  /** Maps what a stage threw: a typed error is the answer; a store that did not answer is 503 with nothing more written. */
  private failWith(err: unknown): Promise<InvokeResult> | InvokeResult {
    if (isStoreUnavailable(err)) {
      this.deps.logger.warn({ err, request_id: this.requestId }, "store unavailable");
      return {
        ok: false,
        error: storeUnavailableError(),
        rate: this.windows,
        retryAfter: STORE_RETRY_AFTER_SECONDS,
        charged: null,
      };
    }
    if (isServiceError(err))
      return this.fail(err, err.code === "rate_limited" || err.code === "unavailable" ? retryAfterOf(err) : null);
    this.deps.logger.error(
      { err, request_id: this.requestId, action: this.operation.method ?? this.operation.id },
      "unhandled error",
    );
    return this.fail(new ServiceError("internal", "internal error; quote the request id when reporting it"));
  }
}

/** The ledger operation of credits a call reserved and did not use (refunded under the call's request id). */
export const RESERVATION_REFUND = "reservation_refund";

function retryAfterOf(err: ServiceError): number | null {
  const s = (err.details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
  return typeof s === "number" ? s : null;
}
