import { MAX_ANONYMOUS_REQUEST_BYTES, MAX_REQUEST_BYTES } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import type { HcsContext } from "./state.js";

/** The Content-Type of every JSON answer, set as a header (Koa's `ctx.type` setter looks it up on each call). */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * Whether the request says its body is JSON. The exact header most clients send is recognised without parsing it;
 * anything else (parameters, +json suffixes) goes through Koa's media-type matching.
 */
export function isJsonRequest(ctx: HcsContext): boolean {
  const type = ctx.req.headers["content-type"];
  return type === "application/json" || type === JSON_CONTENT_TYPE || Boolean(ctx.is("application/json"));
}

/**
 * The most bytes a request's body may hold: 10 MiB when it presented a valid key, else 64 KiB (docs/security.md) —
 * anonymous callers send small bodies (a free-key request, a scanner registration), and nobody without a key gets
 * the server to buffer megabytes.
 */
export function bodyLimitOf(ctx: HcsContext): number {
  return ctx.state.caller ? MAX_REQUEST_BYTES : MAX_ANONYMOUS_REQUEST_BYTES;
}

const tooLarge = (limit: number) =>
  new ServiceError("payload_too_large", `request body exceeds ${limit} bytes`, { limit_bytes: limit });

/**
 * Reads the raw body once per request: at most `limit` bytes (default: bodyLimitOf), 413 beyond. With the default
 * limit, a body announced larger (Content-Length) is refused before a byte of it is read, and the connection is
 * closed after the answer. Past the limit while reading (a chunked body), the rest is read and dropped rather than
 * the request destroyed, so the 413 with its error body reaches the client (the connection is closed after it);
 * a reader with a limit of its own (a scan upload, whose 413 names what was exceeded) is refused that way too. An
 * async iterator would destroy the socket on the early exit.
 */
export async function readRawBody(ctx: HcsContext, ownLimit?: number): Promise<Buffer> {
  if (ctx.state.rawBody) return ctx.state.rawBody;
  const req = ctx.req;
  if (req.readableEnded) return Buffer.alloc(0);
  const limit = ownLimit ?? bodyLimitOf(ctx);
  if (ownLimit === undefined && Number(ctx.get("Content-Length") || 0) > limit) {
    ctx.set("Connection", "close");
    throw tooLarge(limit);
  }
  const body = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      settle();
      req.on("data", () => undefined); // drop the rest
      req.on("error", () => undefined);
      ctx.set("Connection", "close");
      reject(tooLarge(limit));
    };
    const onEnd = () => {
      settle();
      // A small body is one chunk: taken as it is, not copied.
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onAborted = () => {
      settle();
      reject(new ServiceError("invalid_body", "the request body ended before it was complete"));
    };
    const onError = onAborted;
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
  ctx.state.rawBody = body;
  return body;
}
