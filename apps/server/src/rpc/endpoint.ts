import { httpStatusFor, isErrorCode, JSONRPC_ERRORS, MAX_ANONYMOUS_REQUEST_BYTES, MAX_JSON_DEPTH } from "@hcs/protocol";
import {
  countRequest,
  groupBPolicy,
  type RatePolicy,
  rateLimitedError,
  type WindowState,
  wouldExceed,
} from "../accounting/index.js";
import type { AppDeps } from "../app-deps.js";
import { ServiceError } from "../errors.js";
import { answerText } from "../http/answer.js";
import { isJsonRequest, JSON_CONTENT_TYPE, readRawBody } from "../http/body.js";
import { credentialsOf } from "../http/credentials.js";
import { errorBody } from "../http/error-body.js";
import { setRateHeaders } from "../http/rate-headers.js";
import { requestGuard, writeCallMeta, writeCharged } from "../http/rest-binding.js";
import type { HcsContext } from "../http/state.js";
import type { CallMeta, Credentials } from "../operations/invoke.js";
import { nestsDeeperThan, tooDeepError } from "../util/json-depth.js";
import {
  invalidRequest,
  parseErrorResponse,
  parsePayload,
  type RpcEntry,
  type RpcError,
  type RpcId,
  responseText,
  unidentifiedResponse,
} from "./jsonrpc.js";
import { callOperation, type RpcCallContext, type RpcMethod, type RpcOutcome, rpcErrorOf } from "./methods.js";

/** The most entries one batch may carry (docs/api.md); a larger batch is refused whole. */
export const MAX_BATCH = 50;

/** Runs one method call through its binding (a catalogue operation, or a protocol handler). */
async function execute(
  methods: ReadonlyMap<string, RpcMethod>,
  method: string,
  params: unknown,
  ctx: RpcCallContext,
): Promise<RpcOutcome | null> {
  const bound = methods.get(method);
  if (!bound) return null;
  return bound.kind === "operation" ? callOperation(bound.operation, params, ctx) : bound.handler.call(params, ctx);
}

const methodNotFound = (method: string): RpcError => ({
  code: JSONRPC_ERRORS.method_not_found,
  message: `Method not found: ${method.slice(0, 100)}`,
});

/** One entry's answer: its result text or error, whether it is answered at all, and its call's accounting. */
interface Answered {
  readonly id: RpcId;
  /** False for a notification: never answered (and not run). */
  readonly answer: boolean;
  readonly result?: string;
  readonly error?: RpcError;
  readonly meta: CallMeta | null;
}

/** The rate-limit state to report on the HTTP answer: the tightest after every counted call. */
function tightest(metas: readonly (CallMeta | null)[]): readonly WindowState[] | null {
  if (metas.length === 1) return metas[0]?.rate?.length ? metas[0].rate : null;
  let best: WindowState[] | null = null;
  for (const m of metas) {
    const w = m?.rate;
    if (!w || w.length === 0) continue;
    const remaining = Math.min(...w.map((x) => x.limit - x.count));
    if (!best || remaining < Math.min(...best.map((x) => x.limit - x.count))) best = [...w];
  }
  return best;
}

/**
 * POST /api/a2a: JSON-RPC 2.0 exactly as the specification reads — single requests, batches of at most 50 entries
 * evaluated concurrently (each counted against the rate limit and charged on its own, through the same invoke
 * pipeline as REST), notifications never answered and never run, ids echoed as written — and the REST-style body
 * `{"method": …, "params": …}` without `jsonrpc`, answered with the plain result or the error body and its HTTP
 * status. Takes the key as X-API-Key or Bearer.
 *
 * Before the body is read: the key is resolved, and a caller already over its Group B limit (per key, or per
 * client address without one) is refused 429 — so a client past its limit costs no read and no parse. The body is
 * then read within the caller's size limit (64 KiB without a valid key) and its nesting depth checked before
 * JSON.parse builds anything (docs/security.md). Each refusal is counted against the limit.
 */
export function rpcEndpoint(deps: AppDeps, methods: ReadonlyMap<string, RpcMethod>) {
  return async (ctx: HcsContext): Promise<void> => {
    requestGuard(ctx);
    if (!isJsonRequest(ctx))
      throw new ServiceError("unsupported_media_type", "send JSON-RPC requests with Content-Type: application/json");
    const credentials = await credentialsOf(deps, ctx, "either");
    const caller = credentials.caller;
    ctx.state.caller = caller;
    // One over-limit read per bucket for the whole request: the check before the body is read, and a batch's 50
    // entries, share it (each entry is still counted, and refused past the limit, in its own settlement).
    const reads = new Map<string, Promise<boolean>>();
    const overLimit = (policy: RatePolicy) => {
      let read = reads.get(policy.bucket);
      if (!read) {
        read = wouldExceed(deps, policy);
        reads.set(policy.bucket, read);
      }
      return read;
    };
    const policy = groupBPolicy(caller, ctx.state.clientIp);
    let counted = false;
    if (await overLimit(policy)) {
      const windows = await countRequest(deps, policy);
      setRateHeaders(ctx, windows);
      const limited = rateLimitedError(windows, deps.now().getTime());
      if (limited) return refuseUnread(ctx, limited.error, limited.retryAfter);
      // The window turned over since the read: this request is counted in the new one and goes on.
      reads.set(policy.bucket, Promise.resolve(false));
      counted = true;
    }
    let raw: Buffer;
    try {
      raw = await readRawBody(ctx);
    } catch (err) {
      if (!counted) await countUncalled(deps, ctx, credentials);
      throw err;
    }
    const context = (suffix: string): RpcCallContext => ({
      deps,
      credentials,
      requestId: `${ctx.state.requestId}${suffix}`,
      clientIp: ctx.state.clientIp,
      header: (name) => ctx.get(name),
      overLimit,
    });

    let body: unknown;
    let text: string;
    if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
      if (!counted) await countUncalled(deps, ctx, credentials);
      const error = rpcErrorOf(tooDeepError("the body"), ctx.state.requestId);
      return answerJson(
        ctx,
        parseErrorResponse({ ...error, code: JSONRPC_ERRORS.parse_error, message: `Parse error: ${error.message}` }),
      );
    }
    try {
      text = raw.toString("utf8");
      body = JSON.parse(text);
    } catch {
      if (!counted) await countUncalled(deps, ctx, credentials);
      return answerJson(ctx, parseErrorResponse());
    }
    const payload = parsePayload(body, text);

    if (payload.kind === "rest_style") {
      const method = typeof payload.method === "string" ? payload.method : "";
      const outcome = await execute(methods, method, payload.params, context(""));
      if (!outcome) {
        if (!counted) await countUncalled(deps, ctx, credentials);
        ctx.status = 404;
        ctx.body = errorBody("not_found", `no method ${JSON.stringify(method).slice(0, 100)}`, ctx.state.requestId);
        return;
      }
      if (outcome.meta) writeCallMeta(ctx, outcome.meta);
      if (outcome.ok) return answerJson(ctx, outcome.json);
      const error = "error" in outcome ? outcome.error : serviceErrorOf(outcome.rpc);
      ctx.status = httpStatusFor(error.code);
      ctx.body = errorBody(error.code, error.message, ctx.state.requestId, error.details);
      return;
    }

    if (payload.kind === "empty_batch") {
      if (!counted) await countUncalled(deps, ctx, credentials);
      return answerJson(ctx, unidentifiedResponse(invalidRequest("an empty batch")));
    }

    const entries = payload.kind === "single" ? [payload.entry] : payload.entries;
    if (entries.length > MAX_BATCH) {
      if (!counted) await countUncalled(deps, ctx, credentials);
      const error = invalidRequest(`a batch may hold at most ${MAX_BATCH} requests`, {
        code: "invalid_body",
        http_status: 400,
        details: { max_batch_size: MAX_BATCH, batch_size: entries.length },
      });
      return answerJson(ctx, unidentifiedResponse(error));
    }

    const run = async (entry: RpcEntry, suffix: string): Promise<Answered> => {
      if (entry.kind === "invalid")
        return { id: entry.id, answer: true, error: invalidRequest(entry.message), meta: null };
      if (entry.notification) {
        notRun(deps, methods, entry.method, `${ctx.state.requestId}${suffix}`);
        return { id: entry.id, answer: false, meta: null };
      }
      const outcome = await execute(methods, entry.method, entry.params, context(suffix));
      if (!outcome) return { id: entry.id, answer: true, error: methodNotFound(entry.method), meta: null };
      if (outcome.ok) return { id: entry.id, answer: true, result: outcome.json, meta: outcome.meta };
      const error = "error" in outcome ? rpcErrorOf(outcome.error, `${ctx.state.requestId}${suffix}`) : outcome.rpc;
      return { id: entry.id, answer: true, error, meta: outcome.meta };
    };
    // A single call (the common case) runs without the batch's Promise.all.
    const answered =
      payload.kind === "single"
        ? [await run(payload.entry, "")]
        : await Promise.all(entries.map((entry, i) => run(entry, `.${i}`)));
    // A request none of whose calls was counted (notifications, invalid entries, unknown methods, public documents)
    // is counted once: nobody calls the endpoint unlimited.
    if (!counted && answered.every((a) => !a.meta?.rate)) await countUncalled(deps, ctx, credentials);
    const rate = tightest(answered.map((a) => a.meta));
    if (rate) setRateHeaders(ctx, rate);
    // What the calls took, stated as REST states it (a notification's charge included: the caller paid it).
    writeCharged(
      ctx,
      answered.flatMap((a) => (a.meta?.charged ? [a.meta.charged] : [])),
    );
    const texts = answered
      .filter((a) => a.answer)
      .map((a) => responseText(a.id, a.result !== undefined ? { result: a.result } : { error: a.error! }));
    if (texts.length === 0) {
      ctx.status = 204;
      return;
    }
    answerJson(ctx, payload.kind === "batch" ? `[${texts.join(",")}]` : texts[0]!);
  };
}

/**
 * A notification is not run: JSON-RPC 2.0 sends it no answer, so its caller could never learn what it returned,
 * whether it failed, or what it cost — and a paid method would be charged for a result nobody can read. Nothing
 * is invoked, charged or written (the request is still counted against the rate limit); each one is logged with
 * its reason and counted in `hcs_jsonrpc_notifications_not_run_total` (docs/api.md).
 */
function notRun(deps: AppDeps, methods: ReadonlyMap<string, RpcMethod>, method: string, requestId: string): void {
  const known = methods.has(method);
  deps.metrics.rpcNotificationsNotRun.inc({ method: known ? method : "(unknown)" });
  deps.logger.info(
    {
      request_id: requestId,
      method: known ? method : method.slice(0, 100),
      reason: "a notification gets no answer: it is not run, charged or recorded; send an id to call the method",
    },
    "JSON-RPC notification not run",
  );
}

/**
 * The 429 of a caller over its limit before its body was read: the error body (its id unknown, no JSON-RPC answer
 * can name it) with Retry-After. A large body left unread closes the connection rather than being drained.
 */
function refuseUnread(ctx: HcsContext, error: ServiceError, retryAfter: number): void {
  const announced = ctx.get("Content-Length");
  if (announced === "" ? ctx.get("Transfer-Encoding") !== "" : Number(announced) > MAX_ANONYMOUS_REQUEST_BYTES)
    ctx.set("Connection", "close");
  ctx.set("Retry-After", String(retryAfter));
  ctx.status = httpStatusFor(error.code);
  ctx.body = errorBody(error.code, error.message, ctx.state.requestId, error.details);
}

/**
 * A protocol's own JSON-RPC error (A2A's) as the error body of a REST-style answer: the HCS code its data names
 * (TaskNotFound carries job_not_found, so 404), else invalid_body.
 */
function serviceErrorOf(rpc: RpcError): ServiceError {
  const data = rpc.data as { code?: unknown; details?: Record<string, unknown> } | undefined;
  return isErrorCode(data?.code)
    ? new ServiceError(data.code, rpc.message, data.details)
    : new ServiceError("invalid_body", rpc.message);
}

function answerJson(ctx: HcsContext, text: string): void {
  answerText(ctx, 200, JSON_CONTENT_TYPE, text);
}

/**
 * Counts a request that invoked no operation (unparseable, empty, oversized batch, unknown method) once against the
 * caller's Group B limit — per key, or per client address — and sets the rate-limit headers.
 */
async function countUncalled(deps: AppDeps, ctx: HcsContext, credentials: Credentials): Promise<void> {
  setRateHeaders(ctx, await countRequest(deps, groupBPolicy(credentials.caller, ctx.state.clientIp)));
}
