import { describe, expect, it } from "vitest";
import { Outcome, type TcpConnectRequest, type TcpWrapBinding } from "../tcp-wrap.js";
import { HelperProber } from "./prober.js";
import type { HelperMessage, HelperSettings } from "./protocol.js";

// The helper's logic against a scripted TCP binding: the test decides when and how each connect completes, and
// moves the clock, so scheduling, timeouts, cancellation and socket reuse are checked exactly.
const REFUSED = -111;
const ABORTED = -103;
const NO_BUFFERS = -105;

interface FakeHandle {
  readonly id: number;
  connects: number;
  closed: boolean;
}

function harness(settings: Partial<HelperSettings> = {}) {
  let clock = 1000;
  const sent: HelperMessage[] = [];
  let afterPoll: (() => void)[] = [];
  let sweeper: (() => void) | null = null;
  const requests: { req: TcpConnectRequest; handle: FakeHandle; host: string; port: number }[] = [];
  const handles: FakeHandle[] = [];
  /** What connect() answers synchronously for a host (0: started; a negative status: failed at once). */
  const immediate = new Map<string, number>();
  let reconnect: number | null = null;
  class TCP {
    readonly state: FakeHandle = { id: handles.length, connects: 0, closed: false };
    constructor() {
      handles.push(this.state);
    }
    connect(req: TcpConnectRequest, host: string, port: number): number {
      this.state.connects++;
      // A refused socket connected again: the first call answers what the script says (ECONNABORTED on Linux).
      if (this.state.connects % 2 === 0 && reconnect !== null && this.state.connects === 2) return reconnect;
      const status = immediate.get(host) ?? 0;
      if (status === 0) requests.push({ req, handle: this.state, host, port });
      return status;
    }
    connect6(req: TcpConnectRequest, host: string, port: number): number {
      return this.connect(req, host, port);
    }
    close(): void {
      this.state.closed = true;
    }
  }
  class TCPConnectWrap {
    oncomplete(_status: number): void {}
  }
  const binding = { TCP, TCPConnectWrap, constants: { SOCKET: 0 } } as unknown as TcpWrapBinding;
  const prober = new HelperProber(binding, {
    send: (m) => sent.push(m),
    now: () => clock,
    afterPoll: (fn) => afterPoll.push(fn),
    every: (_ms, fn) => {
      sweeper = fn;
      return () => {
        sweeper = null;
      };
    },
    usage: () => ({ rss: 50_000_000, maxRss: 52_000_000, cpu: 1234 }),
  });
  prober.handle({
    t: "i",
    closed: [REFUSED],
    local: [NO_BUFFERS],
    refused: REFUSED,
    aborted: ABORTED,
    reuse: false,
    sweepMs: 10,
    active: 2,
    maxActive: 3,
    ...settings,
  });
  const poll = () => {
    const due = afterPoll;
    afterPoll = [];
    for (const fn of due) fn();
  };
  return {
    prober,
    sent,
    requests,
    handles,
    immediate,
    setReconnect: (status: number | null) => {
      reconnect = status;
    },
    advance: (ms: number) => {
      clock += ms;
    },
    sweep: () => sweeper?.(),
    hasSweeper: () => sweeper !== null,
    poll,
    /** Answers sent so far, as [id, outcome, rtt] triples. */
    answers: () =>
      sent.flatMap((m) =>
        m.t === "r" ? Array.from({ length: m.b.length / 3 }, (_, i) => m.b.slice(i * 3, i * 3 + 3)) : [],
      ),
    complete: (index: number, status: number) => {
      const r = requests[index]!;
      r.req.oncomplete.call(r.req, status);
    },
  };
}

describe("probe helper: the prober", () => {
  it("keeps `active` sockets in flight, starts waiting probes as others finish, and batches the answers", () => {
    const h = harness();
    h.prober.handle({ t: "p", h: ["10.0.0.1", "10.0.0.2"], b: [1, 0, 22, 500, 2, 1, 22, 500, 3, 0, 80, 500] });
    expect(h.requests.map((r) => `${r.host}:${r.port}`)).toEqual(["10.0.0.1:22", "10.0.0.2:22"]);
    expect(h.prober.outstanding).toBe(3);
    h.advance(4);
    h.complete(0, 0);
    h.complete(1, REFUSED);
    // The third probe started as soon as a socket was free; answers wait for the end of this loop iteration.
    expect(h.requests.map((r) => `${r.host}:${r.port}`)).toContain("10.0.0.1:80");
    expect(h.sent).toEqual([]);
    h.poll();
    expect(h.answers()).toEqual([
      [1, Outcome.open, 4],
      [2, Outcome.closed, 4],
    ]);
    expect(h.sent).toHaveLength(1);
    // Every socket is closed (no reuse configured).
    expect(h.handles.slice(0, 2).every((x) => x.closed)).toBe(true);
  });

  it("extends its host table across batches and answers an unknown host index filtered without probing", () => {
    const h = harness();
    h.prober.handle({ t: "p", h: ["10.0.0.1"], b: [1, 0, 22, 500] });
    h.prober.handle({ t: "p", h: ["10.0.0.9"], b: [2, 1, 22, 500, 3, 7, 22, 500] });
    expect(h.requests.map((r) => r.host)).toEqual(["10.0.0.1", "10.0.0.9"]);
    h.poll();
    expect(h.answers()).toEqual([[3, Outcome.filtered, 0]]);
  });

  it("times probes out from when it starts them, after the next poll, and lets one more wait per timeout", () => {
    const h = harness({ active: 1, maxActive: 2 });
    h.prober.handle({ t: "p", h: ["10.0.0.1"], b: [1, 0, 1, 100, 2, 0, 2, 100, 3, 0, 3, 100] });
    expect(h.requests).toHaveLength(1);
    h.advance(99);
    h.sweep();
    h.poll();
    expect(h.answers()).toEqual([]);
    h.advance(1);
    h.sweep();
    // Seen due at the sweep; an answer that arrives before the next poll still wins.
    h.complete(0, REFUSED);
    h.poll();
    expect(h.answers()).toEqual([[1, Outcome.closed, 100]]);
    // Probe 2 now holds the socket; its timeout raises the sockets in flight to 2, so probe 3 starts alongside.
    h.advance(100);
    h.sweep();
    h.poll();
    // The expiry's answer goes out one loop iteration later, with whatever else finished by then.
    h.poll();
    expect(h.answers().at(-1)).toEqual([2, Outcome.filtered, 100]);
    expect(h.requests.map((r) => r.port)).toEqual([1, 2, 3]);
    h.complete(2, 0);
    h.poll();
    // Idle: the sweeping timer stops at its next tick.
    h.sweep();
    expect(h.hasSweeper()).toBe(false);
  });

  it("closes cancelled probes without an answer, including ones still waiting for a socket", () => {
    const h = harness({ active: 1 });
    h.prober.handle({ t: "p", h: ["10.0.0.1"], b: [1, 0, 1, 500, 2, 0, 2, 500, 3, 0, 3, 500] });
    h.prober.handle({ t: "c", ids: [1, 2] });
    // Probe 1 closed in flight, probe 2 dropped before it started, probe 3 started.
    expect(h.handles[0]!.closed).toBe(true);
    expect(h.requests.map((r) => r.port)).toEqual([1, 3]);
    h.complete(0, 0);
    h.complete(1, 0);
    h.poll();
    expect(h.answers()).toEqual([[3, Outcome.open, 0]]);
  });

  it("answers a connect that fails at once by its status: local failures apart from closed and filtered", () => {
    const h = harness({ active: 4 });
    h.immediate.set("10.0.0.1", NO_BUFFERS);
    h.immediate.set("10.0.0.2", REFUSED);
    h.immediate.set("10.0.0.3", -22);
    h.prober.handle({ t: "p", h: ["10.0.0.1", "10.0.0.2", "10.0.0.3"], b: [1, 0, 1, 500, 2, 1, 1, 500, 3, 2, 1, 500] });
    h.poll();
    expect(h.answers()).toEqual([
      [1, Outcome.localFailure, 0],
      [2, Outcome.closed, 0],
      [3, Outcome.filtered, 0],
    ]);
  });

  it("connects a refused socket again when reuse is on, and stops reusing where the system refuses", () => {
    const h = harness({ reuse: true, active: 1 });
    h.setReconnect(ABORTED);
    h.prober.handle({ t: "p", h: ["10.0.0.1"], b: [1, 0, 1, 500, 2, 0, 2, 500] });
    h.complete(0, REFUSED);
    // The refused socket served the second probe: reset (ECONNABORTED), then connected.
    expect(h.handles).toHaveLength(1);
    expect(h.handles[0]!.connects).toBe(3);
    h.complete(1, REFUSED);

    const other = harness({ reuse: true, active: 1 });
    // This system answers the reset with an error of its own, and a fresh socket takes the address: reuse is off.
    other.setReconnect(-9);
    other.prober.handle({ t: "p", h: ["10.0.0.1"], b: [1, 0, 1, 500, 2, 0, 2, 500, 3, 0, 3, 500] });
    other.complete(0, REFUSED);
    expect(other.handles).toHaveLength(2);
    expect(other.handles[0]!.closed).toBe(true);
    other.complete(1, REFUSED);
    // Not kept for reuse any more: the third probe gets a fresh socket and the refused one is closed.
    expect(other.handles).toHaveLength(3);
    expect(other.handles[1]!.closed).toBe(true);
  });

  it("answers a statistics question with its memory and CPU", () => {
    const h = harness();
    h.prober.handle({ t: "s", q: 7 });
    expect(h.sent).toEqual([{ t: "s", q: 7, rss: 50_000_000, maxRss: 52_000_000, cpu: 1234 }]);
  });
});
