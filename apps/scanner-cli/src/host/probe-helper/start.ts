import type { TcpWrapBinding } from "../tcp-wrap.js";
import type { HelperProber } from "./prober.js";
import { type HelperMessage, parseParentMessage } from "./protocol.js";

/** What the helper's entry hands over: its binding (or null), channel and exit, and how to make its prober. */
export interface HelperStart {
  readonly binding: TcpWrapBinding | null;
  send(message: HelperMessage, then?: () => void): void;
  onMessage(listener: (message: unknown) => void): void;
  exit(): void;
  prober(binding: TcpWrapBinding): Pick<HelperProber, "handle">;
}

/**
 * Starts the helper: says `ready` and serves the parent's messages, or, where libuv's TCP handle is not usable
 * (a Node without process.binding, or one that throws), says why and exits; the parent then probes on its own.
 * Messages that are not the protocol's are ignored.
 */
export function startHelper(start: HelperStart): void {
  if (start.binding === null) {
    start.send({ t: "x", error: "libuv's TCP handle (process.binding('tcp_wrap')) is not usable on this Node" }, () =>
      start.exit(),
    );
    return;
  }
  const prober = start.prober(start.binding);
  start.onMessage((raw) => {
    const message = parseParentMessage(raw);
    if (message !== null) prober.handle(message);
  });
  start.send({ t: "ready" });
}
