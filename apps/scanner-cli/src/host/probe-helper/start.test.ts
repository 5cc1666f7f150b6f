import { describe, expect, it } from "vitest";
import type { TcpWrapBinding } from "../tcp-wrap.js";
import type { HelperMessage, ParentMessage } from "./protocol.js";
import { startHelper } from "./start.js";

function started(binding: TcpWrapBinding | null) {
  const sent: HelperMessage[] = [];
  const handled: ParentMessage[] = [];
  let listener: ((m: unknown) => void) | null = null;
  let exited = false;
  startHelper({
    binding,
    send: (m, then) => {
      sent.push(m);
      then?.();
    },
    onMessage: (l) => {
      listener = l;
    },
    exit: () => {
      exited = true;
    },
    prober: () => ({ handle: (m) => handled.push(m) }),
  });
  return { sent, handled, deliver: (m: unknown) => listener?.(m), exited: () => exited };
}

describe("probe helper start", () => {
  it("on a Node without a usable TCP handle, says why and exits (the parent then probes alone)", () => {
    const h = started(null);
    expect(h.sent).toEqual([{ t: "x", error: expect.stringContaining("tcp_wrap") }]);
    expect(h.exited()).toBe(true);
  });

  it("says ready and hands the prober only messages of the protocol", () => {
    const h = started({} as TcpWrapBinding);
    expect(h.sent).toEqual([{ t: "ready" }]);
    h.deliver({ t: "c", ids: [4] });
    h.deliver({ t: "c", ids: "all" });
    h.deliver("garbage");
    expect(h.handled).toEqual([{ t: "c", ids: [4] }]);
    expect(h.exited()).toBe(false);
  });
});
