import type { HcsContext } from "./state.js";

/** Statuses that carry no body (Koa's `statuses.empty`). */
const EMPTY_STATUSES = new Set([204, 205, 304]);

/**
 * Koa's own last step (`respond` in koa/lib/application.js, 3.x) for a request served without Koa's request
 * handler (http/hot-routes.ts): sends what the handler left in `ctx` — nothing when it answered itself
 * (`ctx.respond = false`), no body for an empty status or HEAD, the status message for no body, a string or Buffer
 * as is, anything else as JSON. Streams are not sent here: no handler dispatched that way answers with one, and one
 * that did would be a programming error, answered 500 by the caller.
 */
export function respond(ctx: HcsContext): void {
  if (ctx.respond === false) return;
  const res = ctx.res;
  if (!ctx.writable) {
    res.end();
    return;
  }
  const body: unknown = ctx.body;
  const code = ctx.status;
  if (EMPTY_STATUSES.has(code)) {
    ctx.body = null;
    res.end();
    return;
  }
  if (ctx.method === "HEAD") {
    if (!res.headersSent && !res.hasHeader("Content-Length")) {
      const { length } = ctx.response;
      if (Number.isInteger(length)) ctx.length = length;
    }
    res.end();
    return;
  }
  if (body === null || body === undefined) {
    // A body the handler set to null on purpose (`ctx.body = null`, then a status that carries a body: Koa's setter
    // made it 204, a later `ctx.status = 200` keeps the null) is sent empty; a body never set is the status message.
    // Koa tells the two apart by a private flag its body setter raises; its public body says the same: it starts
    // undefined and is null only once set to null (the setter stores what it is given). The one sequence they differ
    // on, null and then undefined, no handler served here does.
    if (body === null) {
      ctx.response.remove("Content-Type");
      ctx.response.remove("Transfer-Encoding");
      ctx.length = 0;
      res.end();
      return;
    }
    const text = ctx.message || String(code);
    if (!res.headersSent) {
      ctx.type = "text";
      ctx.length = Buffer.byteLength(text);
    }
    res.end(text);
    return;
  }
  if (Buffer.isBuffer(body) || typeof body === "string") {
    res.end(body);
    return;
  }
  if (typeof (body as { pipe?: unknown }).pipe === "function" || body instanceof Blob || body instanceof ReadableStream)
    throw new Error("a hot route answered with a stream; only a string, Buffer or JSON value can be sent here");
  const json = JSON.stringify(body);
  if (!res.headersSent) ctx.length = Buffer.byteLength(json);
  res.end(json);
}
