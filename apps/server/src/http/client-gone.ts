import type { HcsContext } from "./state.js";

/**
 * A signal aborted when the client's connection closes before the answer was sent (a browser tab closed, a client
 * timed out): work still waiting for the request — a report queued for layout — can be dropped. Made on demand, so
 * requests that never ask pay nothing.
 */
export function clientGoneSignal(ctx: Pick<HcsContext, "res">): AbortSignal {
  const controller = new AbortController();
  const res = ctx.res;
  if (res.writableFinished) return controller.signal;
  if (res.destroyed || res.socket?.destroyed) {
    controller.abort();
    return controller.signal;
  }
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
