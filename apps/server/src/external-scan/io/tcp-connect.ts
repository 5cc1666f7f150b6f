import { connect } from "node:net";
import { netFailureCode } from "./net-errors.js";
import type { TcpIO, TcpPortState } from "./types.js";

export interface NodeTcpConnectOptions {
  readonly timeoutMs: number;
}

/** TCP connect probes through node:net: open, closed (refused), filtered (no answer in time) or unreachable. */
export function createNodeTcpConnect(options: NodeTcpConnectOptions): TcpIO {
  return {
    connect: ({ address, port, signal }) =>
      new Promise((resolve) => {
        if (signal.aborted) return resolve({ state: "filtered", detail: "cancelled" });
        let settled = false;
        const socket = connect({ host: address, port });
        const finish = (state: TcpPortState, detail?: string) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          socket.destroy();
          resolve(detail === undefined ? { state } : { state, detail });
        };
        const onAbort = () => finish("filtered", "cancelled");
        // No answer at all is what a firewall that drops packets looks like.
        const timer = setTimeout(() => finish("filtered", "no answer"), options.timeoutMs);
        signal.addEventListener("abort", onAbort, { once: true });
        socket.once("connect", () => finish("open"));
        socket.once("error", (error: NodeJS.ErrnoException) => {
          const code = netFailureCode(error);
          if (code === "connection_refused") finish("closed");
          else if (code === "unreachable") finish("unreachable", error.code);
          else if (code === "timeout") finish("filtered", error.code);
          else finish("error", error.code ?? error.message);
        });
      }),
  };
}
