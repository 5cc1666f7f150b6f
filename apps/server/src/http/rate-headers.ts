import { bindingWindow, type WindowState } from "../accounting/index.js";
import { setHeader } from "./answer.js";
import type { HcsContext } from "./state.js";

/** X-RateLimit-Limit/Remaining/Reset (Reset in Unix epoch seconds) of the binding window (bindingWindow). */
export function setRateHeaders(ctx: HcsContext, windows: readonly WindowState[]): void {
  const binding = windows.length === 1 ? windows[0]! : bindingWindow(windows);
  setHeader(ctx, "X-RateLimit-Limit", String(binding.limit));
  setHeader(ctx, "X-RateLimit-Remaining", String(Math.max(0, binding.limit - binding.count)));
  setHeader(ctx, "X-RateLimit-Reset", String(Math.ceil(binding.resetAtMs / 1000)));
}
