import type { HcsContext } from "./state.js";

// The hot path's headers and bodies go to Node's response directly. Koa 3's ctx.set builds an entries array, a
// normalized pair and a closure per header, and its body setter sets Content-Type and Content-Length through it
// again: together 10.6 % of the bytes the server allocated under bench/grade-lookup (sampling heap profile,
// docs/performance.md#less-allocation-per-request; 3.5 % written here). Values here are strings already, so Koa's
// normalization has nothing to do.

/** Sets a response header unless the response has already been sent (as ctx.set does). */
export function setHeader(ctx: HcsContext, name: string, value: string): void {
  if (!ctx.res.headersSent) ctx.res.setHeader(name, value);
}

/**
 * Answers with a complete text now: status, Content-Type and Content-Length, then the body, and tells Koa not to
 * respond again (`ctx.respond = false`). The middleware around the handler still see the status; a HEAD request gets
 * the headers only (Node drops the body of a HEAD response).
 */
export function answerText(ctx: HcsContext, status: number, contentType: string, text: string): void {
  ctx.status = status;
  const res = ctx.res;
  res.setHeader("Content-Type", contentType);
  res.setHeader("Content-Length", Buffer.byteLength(text));
  ctx.respond = false;
  res.end(text);
}
