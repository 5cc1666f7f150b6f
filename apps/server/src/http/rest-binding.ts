import { httpStatusFor, MAX_REQUEST_BYTES } from "@hcs/protocol";
import type { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { ServiceError } from "../errors.js";
import { type CallMeta, type InvokeResult, invoke } from "../operations/invoke.js";
import { type Operation, PreserializedJson, RawBody, type RestReaders } from "../operations/operation.js";
import { parseJsonBytes } from "../util/json-depth.js";
import { answerText, setHeader } from "./answer.js";
import { isJsonRequest, JSON_CONTENT_TYPE, readRawBody } from "./body.js";
import { forwardedProtoOf } from "./client-address.js";
import { clientGoneSignal } from "./client-gone.js";
import { credentialsOf, type KeyHeader, NO_CREDENTIALS } from "./credentials.js";
import { errorBody } from "./error-body.js";
import { HTTPS_REFUSAL } from "./https-only.js";
import { setRateHeaders } from "./rate-headers.js";
import type { HcsContext } from "./state.js";

/**
 * Refusals that come before any input is read: a request a trusted proxy received over plain HTTP (403
 * https_required) and a body announced larger than the limit (413, connection closed: the body is never read).
 */
export function requestGuard(ctx: HcsContext): void {
  const proto = forwardedProtoOf(ctx.get("X-Forwarded-Proto"), ctx.state.trustedHops);
  if (proto !== null && proto !== "https") throw new ServiceError("https_required", HTTPS_REFUSAL);
  if (Number(ctx.get("Content-Length") || 0) > MAX_REQUEST_BYTES) {
    ctx.set("Connection", "close");
    throw new ServiceError("payload_too_large", `request body exceeds ${MAX_REQUEST_BYTES} bytes`, {
      limit_bytes: MAX_REQUEST_BYTES,
    });
  }
}

/** The key header an operation's group reads over REST. */
export function keyHeaderOf(operation: Operation): KeyHeader | null {
  if (operation.group === "public") return null;
  return operation.group === "a" || operation.group === "a-open" ? "bearer" : "x-api-key";
}

// zod wrappers whose inner type decides how a query string is read.
const WRAPPERS = new Set(["optional", "default", "nullable", "prefault", "catch", "readonly"]);

function innerType(schema: z.ZodType): string {
  let def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
  while (WRAPPERS.has(def.type) && def.innerType)
    def = (def.innerType as unknown as { _zod: { def: typeof def } })._zod.def;
  return def.type;
}

/**
 * Query strings read as the operation's schema types them: numbers and booleans from their text, a list from
 * comma-separated values (`?ids=a,b`). Anything else stays text, and the schema judges it.
 */
export function queryInput(query: Record<string, string | string[] | undefined>, schema: z.ZodType) {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    const field = shape[key];
    const type = field ? innerType(field) : "unknown";
    if (type === "array") {
      out[key] = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(",")).filter((v) => v !== "");
      continue;
    }
    if (Array.isArray(raw)) {
      out[key] = raw; // a repeated scalar: the schema refuses it
      continue;
    }
    if (type === "number" || type === "int") out[key] = raw.trim() === "" ? raw : Number(raw);
    else if (type === "boolean") out[key] = raw === "true" ? true : raw === "false" ? false : raw;
    else out[key] = raw;
  }
  return out;
}

/**
 * A POST's or PATCH's JSON body ({} when there is none): at most 10 MiB with a valid key, 64 KiB without (413);
 * 415 for other media types, 400 invalid_json for bad JSON or JSON nested deeper than MAX_JSON_DEPTH.
 */
export async function jsonBodyOf(ctx: HcsContext): Promise<unknown> {
  const length = ctx.get("Content-Length");
  if ((length === "" || length === "0") && ctx.get("Transfer-Encoding") === "") return {};
  if (!isJsonRequest(ctx))
    throw new ServiceError("unsupported_media_type", "send the body as JSON with Content-Type: application/json");
  const raw = await readRawBody(ctx);
  if (raw.length === 0) return {};
  return parseJsonBytes(raw, "the request body");
}

/** The input of a REST call: query, then JSON body, then path parameters (the path wins). */
async function restInput(ctx: HcsContext, operation: Operation): Promise<unknown> {
  // Every reader bound in the catalogue is written for this transport's context (see RestReaders).
  const readers = operation.restReaders as RestReaders<HcsContext> | undefined;
  if (readers?.input) return readers.input(ctx);
  const params = (ctx as unknown as { params?: Record<string, string> }).params ?? {};
  const body = ctx.method === "POST" || ctx.method === "PATCH" ? await jsonBodyOf(ctx) : {};
  // A body that is not an object (an array, a number) goes to the schema as it is, which refuses it with its issues.
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  return {
    ...readers?.fromHeaders?.(ctx),
    ...queryInput(ctx.query, operation.input),
    ...body,
    ...params,
  };
}

/** Rate-limit, Retry-After and credit headers of an answered call. */
export function writeCallMeta(ctx: HcsContext, meta: CallMeta): void {
  if (meta.rate) setRateHeaders(ctx, meta.rate);
  if (meta.retryAfter !== null) setHeader(ctx, "Retry-After", String(meta.retryAfter));
  if (meta.charged) writeCharged(ctx, [meta.charged]);
}

/**
 * The credit headers of an answer that carries one or more calls (a JSON-RPC batch): what they took together, and
 * the balance after the last of them (the lowest: one key, one account).
 */
export function writeCharged(ctx: HcsContext, charges: readonly { credits: number; balance: number }[]): void {
  if (charges.length === 0) return;
  setHeader(ctx, "X-Credits-Charged", String(charges.reduce((n, c) => n + c.credits, 0)));
  setHeader(ctx, "X-Credits-Remaining", String(Math.min(...charges.map((c) => c.balance))));
}

/** Writes an invocation's result as the REST answer. */
export function writeRest(ctx: HcsContext, operation: Operation, result: InvokeResult): void {
  writeCallMeta(ctx, result);
  if (!result.ok) {
    ctx.status = httpStatusFor(result.error.code);
    ctx.body = errorBody(result.error.code, result.error.message, ctx.state.requestId, result.error.details);
    return;
  }
  const output = result.output;
  const answer = operation.rest?.answer?.((output instanceof PreserializedJson ? output.value() : output) as never);
  const status = answer?.status ?? operation.rest?.status ?? 200;
  ctx.status = status;
  if (operation.rest?.headers || answer?.headers) {
    for (const [name, value] of Object.entries({ ...operation.rest?.headers, ...answer?.headers }))
      ctx.set(name, value);
  }
  if (output instanceof PreserializedJson) {
    // The hot path (a stored grade): answered here, without Koa's header and body setters (answer.ts).
    answerText(ctx, status, JSON_CONTENT_TYPE, output.json);
  } else if (output instanceof RawBody) {
    for (const [name, value] of Object.entries(output.headers)) ctx.set(name, value);
    ctx.set("Content-Type", output.contentType);
    // Koa sends a Buffer as bytes but would serialize any other Uint8Array as JSON.
    const body = output.body;
    ctx.body =
      typeof body === "string" || Buffer.isBuffer(body)
        ? body
        : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  } else {
    ctx.body = output;
  }
}

/**
 * The REST handler of one operation, composed once at start-up from its declaration: read the key its group
 * uses, invoke (authorize, count, validate, run, settle), answer. The body is read only inside the invocation, after
 * the call was authorized and counted.
 */
export function restHandler(deps: AppDeps, operation: Operation) {
  const header = keyHeaderOf(operation);
  return async (ctx: HcsContext): Promise<void> => {
    // The router serves HEAD on every GET route; an operation's GET does work (and some write, or scan, or are paid),
    // which HEAD must never do. Refused before anything is read or counted (docs/api.md#errors, HEAD).
    if (ctx.method === "HEAD") {
      ctx.set("Allow", "GET");
      throw new ServiceError("method_not_allowed", "HEAD is not served on operations: use GET");
    }
    const credentials = header ? await credentialsOf(deps, ctx, header) : NO_CREDENTIALS;
    ctx.state.caller = credentials.caller;
    const result = await invoke(deps, {
      operation,
      credentials,
      transport: "rest",
      requestId: ctx.state.requestId,
      clientIp: ctx.state.clientIp,
      guard: () => requestGuard(ctx),
      input: () => restInput(ctx, operation),
      clientSignal: () => clientGoneSignal(ctx),
    });
    writeRest(ctx, operation, result);
  };
}
