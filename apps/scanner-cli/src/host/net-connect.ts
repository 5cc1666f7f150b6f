import { Socket } from "node:net";
import type { ConnectResult, PortState } from "./host.js";
import { CLOSED_ERRORS, LOCAL_FAILURE_ERRORS } from "./tcp-wrap.js";

// The same error table as the tcp_wrap probe, so both probes give the same states.
const LOCAL_FAILURES = new Set(LOCAL_FAILURE_ERRORS);
const CLOSED = new Set(CLOSED_ERRORS);

/**
 * One TCP connect probe: `open` on a completed handshake (closed again at once, nothing sent), `closed` on a
 * refusal, `filtered` when nothing answers in time or the network says unreachable.
 */
export function tcpConnect(
  host: string,
  port: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ConnectResult> {
  if (signal?.aborted) return Promise.resolve({ state: "filtered", rttMs: 0 });
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = new Socket();
    let settled = false;
    const finish = (state: PortState, localFailure = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      socket.destroy();
      const rttMs = performance.now() - started;
      resolve(localFailure ? { state, rttMs, localFailure } : { state, rttMs });
    };
    const onAbort = () => finish("filtered");
    const timer = setTimeout(() => finish("filtered"), timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    socket.once("connect", () => finish("open"));
    socket.once("error", (error: NodeJS.ErrnoException) => {
      const code = error.code ?? "";
      if (CLOSED.has(code)) finish("closed");
      else if (LOCAL_FAILURES.has(code)) finish("filtered", true);
      else finish("filtered");
    });
    socket.connect({ host, port });
  });
}
