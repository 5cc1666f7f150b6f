import {
  Outcome,
  type OutcomeCode,
  startConnect,
  type TcpConnectRequest,
  type TcpHandle,
  type TcpWrapBinding,
} from "../tcp-wrap.js";
import { type HelperMessage, type HelperSettings, type ParentMessage, PROBE_STRIDE } from "./protocol.js";

/** Spare sockets kept at most per address family. */
const MAX_SPARES = 1024;

/** What the prober needs from its process: the parent's channel, a clock, timers and its own resource usage. */
export interface ProberIo {
  send(message: HelperMessage): void;
  now(): number;
  /** Runs `fn` after the next poll for I/O (setImmediate). */
  afterPoll(fn: () => void): void;
  /** Calls `fn` every `ms` until the returned function is called (setInterval). */
  every(ms: number, fn: () => void): () => void;
  usage(): { rss: number; maxRss: number; cpu: number };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface Probe extends TcpConnectRequest {
  readonly id: number;
  readonly v6: boolean;
  readonly started: number;
  readonly deadline: number;
  handle: TcpHandle | null;
  done: boolean;
}

/**
 * The probe helper's work (host/probe-helper/main.ts is its process entry): connect to the address:port pairs the
 * parent sends, answer what happened, in batches. The parent decides what to probe (after the scope guard) and
 * keeps the authoritative deadline; the helper starts its probes as earlier ones finish, so it never waits idle for
 * the parent's next batch, and times each out from when it starts it.
 */
export class HelperProber {
  private settings: HelperSettings = {
    t: "i",
    closed: [],
    local: [],
    refused: null,
    aborted: null,
    reuse: false,
    sweepMs: 10,
    active: 256,
    maxActive: 256,
  };
  private closedCodes = new Set<number>();
  private localCodes = new Set<number>();
  private reuse = false;
  private active = 256;
  /** Probes received and not started: id, host, port, timeout, flat. */
  private pending: (number | string)[] = [];
  private head = 0;
  private pumping = false;
  private readonly cancelled = new Set<number>();
  private readonly spare4: TcpHandle[] = [];
  private readonly spare6: TcpHandle[] = [];
  private readonly hosts: string[] = [];
  private readonly live = new Map<number, Probe>();
  private out: number[] = [];
  private flushQueued = false;
  private stopSweeper: (() => void) | null = null;
  private readonly onComplete: (this: Probe, status: number) => void;

  constructor(
    private readonly tcp: TcpWrapBinding,
    private readonly io: ProberIo,
  ) {
    const prober = this;
    // libuv calls back with the request as `this`: one function for every probe, no closure per probe.
    this.onComplete = function (this: Probe, status: number): void {
      if (!this.done) prober.finish(this, prober.classify(status), status === prober.settings.refused);
    };
  }

  /** Probes received and not answered yet (in flight or waiting for a socket). */
  get outstanding(): number {
    return this.live.size + (this.pending.length - this.head) / PROBE_STRIDE;
  }

  handle(message: ParentMessage): void {
    switch (message.t) {
      case "i":
        this.settings = message;
        this.closedCodes = new Set(message.closed);
        this.localCodes = new Set(message.local);
        this.reuse = message.reuse;
        this.active = message.active;
        break;
      case "p":
        for (const h of message.h) this.hosts.push(h);
        for (let i = 0; i < message.b.length; i += PROBE_STRIDE) {
          const host = this.hosts[message.b[i + 1]!];
          // A host index the parent never sent: answered filtered rather than probing `undefined`.
          if (host === undefined) this.answer(message.b[i]!, Outcome.filtered, 0);
          else this.pending.push(message.b[i]!, host, message.b[i + 2]!, message.b[i + 3]!);
        }
        if (!this.pumping) this.pump();
        break;
      case "c":
        this.cancel(message.ids);
        break;
      case "s":
        this.io.send({ t: "s", q: message.q, ...this.io.usage() });
        break;
    }
  }

  private classify(status: number): OutcomeCode {
    if (status === 0) return Outcome.open;
    if (this.closedCodes.has(status)) return Outcome.closed;
    if (this.localCodes.has(status)) return Outcome.localFailure;
    return Outcome.filtered;
  }

  private cancel(ids: readonly number[]): void {
    for (const id of ids) {
      const probe = this.live.get(id);
      if (probe === undefined) {
        if (this.head < this.pending.length) this.cancelled.add(id);
        continue;
      }
      probe.done = true;
      this.live.delete(id);
      probe.handle?.close();
    }
    if (!this.pumping) this.pump();
  }

  private answer(id: number, code: OutcomeCode, rttMs: number): void {
    // Microseconds are plenty for a round-trip time, and keep the answer message short.
    this.out.push(id, code, Math.round(rttMs * 1000) / 1000);
    if (!this.flushQueued) {
      this.flushQueued = true;
      this.io.afterPoll(() => this.flush());
    }
  }

  private flush(): void {
    this.flushQueued = false;
    if (this.out.length === 0) return;
    const b = this.out;
    this.out = [];
    this.io.send({ t: "r", b });
  }

  private finish(probe: Probe, code: OutcomeCode, reusable: boolean): void {
    probe.done = true;
    this.live.delete(probe.id);
    const spares = probe.v6 ? this.spare6 : this.spare4;
    if (reusable && this.reuse && spares.length < MAX_SPARES && probe.handle) spares.push(probe.handle);
    else probe.handle?.close();
    probe.handle = null;
    this.answer(probe.id, code, this.io.now() - probe.started);
    if (!this.pumping) this.pump();
  }

  private pump(): void {
    this.pumping = true;
    while (this.live.size < this.active && this.head < this.pending.length) {
      const id = this.pending[this.head] as number;
      const host = this.pending[this.head + 1] as string;
      const port = this.pending[this.head + 2] as number;
      const timeoutMs = this.pending[this.head + 3] as number;
      this.head += PROBE_STRIDE;
      if (this.cancelled.size > 0 && this.cancelled.delete(id)) continue;
      this.start(id, host, port, timeoutMs);
    }
    if (this.head === this.pending.length) {
      this.pending = [];
      this.head = 0;
      this.cancelled.clear();
    }
    this.pumping = false;
    if (this.live.size > 0 && this.stopSweeper === null)
      this.stopSweeper = this.io.every(this.settings.sweepMs, () => this.sweep());
  }

  private start(id: number, host: string, port: number, timeoutMs: number): void {
    const v6 = host.includes(":");
    const started = this.io.now();
    // Fields set one by one on libuv's request object: no extra object per probe on the hot path.
    const probe = new this.tcp.TCPConnectWrap() as Mutable<Probe>;
    probe.oncomplete = this.onComplete;
    probe.id = id;
    probe.v6 = v6;
    probe.started = started;
    probe.deadline = started + (timeoutMs > 0 ? timeoutMs : 0);
    probe.handle = null;
    probe.done = false;
    this.live.set(id, probe);
    const spares = this.reuse ? (v6 ? this.spare6 : this.spare4) : null;
    const connect = startConnect(this.tcp, spares, probe, host, port, this.settings.aborted);
    if (connect.reuseBroken) {
      this.reuse = false;
      this.dropSpares();
    }
    probe.handle = connect.handle;
    if (connect.status !== 0) this.finish(probe, this.classify(connect.status), false);
  }

  /**
   * Timers run before the loop polls for I/O: expiry is applied after the next poll, so an answer already waiting
   * in the kernel is read before its probe is called filtered.
   */
  private sweep(): void {
    if (this.live.size === 0) {
      this.stopSweeper?.();
      this.stopSweeper = null;
      this.dropSpares();
      return;
    }
    const t = this.io.now();
    const expired: Probe[] = [];
    for (const probe of this.live.values()) if (t >= probe.deadline) expired.push(probe);
    if (expired.length > 0) this.io.afterPoll(() => this.expire(expired));
  }

  private expire(expired: readonly Probe[]): void {
    const t = this.io.now();
    for (const probe of expired) {
      if (probe.done || t < probe.deadline) continue;
      // Silent targets are waited on in parallel: each timeout lets one more probe wait here at once.
      if (this.active < this.settings.maxActive) this.active++;
      this.finish(probe, Outcome.filtered, false);
    }
  }

  private dropSpares(): void {
    for (const h of this.spare4) h.close();
    for (const h of this.spare6) h.close();
    this.spare4.length = 0;
    this.spare6.length = 0;
  }
}
