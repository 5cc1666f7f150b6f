import { type ChildProcess, spawn } from "node:child_process";
import type { StatusCodes } from "./tcp-wrap.js";

/**
 * A helper process that makes TCP connect probes for the scanner, so that a scan uses a second CPU core.
 *
 * Why a process: on loopback or a LAN nearly all of a connect scan's time is the kernel's (socket, connect with the
 * SYN and RST handled inline, close). nmap does it on one core; a second Node process does half the probes in
 * parallel. Worker threads were slower: they share one descriptor table, and socket()/close() contend on it.
 *
 * The helper runs the program below with plain `node -e`: no TypeScript loader, no bundler, the same in a
 * published package, under tsx and under vitest. It knows nothing but "connect to these address:port pairs and say
 * what happened"; the parent decides what to probe (after the scope guard) and keeps the authoritative deadline.
 *
 * Protocol (JSON over the IPC channel), parent to helper:
 *   {t:"i", closed:[status…], local:[status…], refused, aborted, reuse, sweepMs, active, maxActive}
 *       status codes (host/tcp-wrap.ts), socket reuse, sweep period, sockets in flight (the rest of the probes
 *       wait in the helper, ready to go; each timeout raises it by one, up to maxActive)
 *   {t:"p", h:[new hosts…], b:[id, hostIndex, port, timeoutMs, …]}  probes; h extends the helper's host table
 *   {t:"c", ids:[…]}                                          cancel: close these probes, send nothing back
 *   {t:"s", q}                                                memory and CPU statistics
 * helper to parent:
 *   {t:"ready"} · {t:"x", error} (cannot probe here; exits) · {t:"r", b:[id, outcome, rttMs, …]} · {t:"s", q, rss, maxRss, cpu}
 * The helper exits when the channel closes (the parent exited, crashed or called close()).
 */
export const HELPER_SOURCE = `"use strict";
let TCP, TCPConnectWrap, SOCKET;
try {
  ({ TCP, TCPConnectWrap, constants: { SOCKET } } = process.binding("tcp_wrap"));
  new TCP(SOCKET).close();
} catch (error) {
  process.send({ t: "x", error: String(error) }, () => process.exit(0));
}
let closedCodes = new Set();
let localCodes = new Set();
let refused = null;
let aborted = null;
let reuse = false;
let sweepMs = 10;
let active = 256;
let maxActive = 256;
// Probes received and not started yet: id, host, port, timeout; started as earlier ones finish, so the helper
// never sits idle waiting for the parent's next batch.
let pending = [];
let head = 0;
let pumping = false;
const cancelled = new Set();
const spare4 = [];
const spare6 = [];
const hosts = [];
const live = new Map();
let out = [];
let flushQueued = false;
let sweeper = null;
const now = () => performance.now();
function flush() {
  flushQueued = false;
  if (out.length === 0) return;
  const b = out;
  out = [];
  process.send({ t: "r", b });
}
function classify(status) {
  if (status === 0) return 0;
  if (closedCodes.has(status)) return 1;
  if (localCodes.has(status)) return 3;
  return 2;
}
function dropSpares() {
  for (const h of spare4) h.close();
  for (const h of spare6) h.close();
  spare4.length = 0;
  spare6.length = 0;
}
function finish(req, code, reusable) {
  req.done = true;
  live.delete(req.id);
  const spares = req.v6 ? spare6 : spare4;
  if (reusable && reuse && spares.length < 1024) spares.push(req.handle);
  else req.handle.close();
  // Microseconds are plenty for a round-trip time, and keep the answer message short.
  out.push(req.id, code, Math.round((now() - req.started) * 1000) / 1000);
  if (!flushQueued) {
    flushQueued = true;
    setImmediate(flush);
  }
  if (!pumping) pump();
}
function pump() {
  pumping = true;
  while (live.size < active && head < pending.length) {
    const id = pending[head];
    const host = pending[head + 1];
    const port = pending[head + 2];
    const timeoutMs = pending[head + 3];
    head += 4;
    if (cancelled.size > 0 && cancelled.delete(id)) continue;
    start(id, host, port, timeoutMs);
  }
  if (head === pending.length) {
    pending = [];
    head = 0;
    cancelled.clear();
  }
  pumping = false;
  if (live.size > 0 && sweeper === null) sweeper = setInterval(sweep, sweepMs);
}
function oncomplete(status) {
  if (!this.done) finish(this, classify(status), status === refused);
}
function expire(expired) {
  const t = now();
  for (const req of expired) {
    if (req.done || t < req.deadline) continue;
    // Silent targets are waited on in parallel: each timeout lets one more probe wait here at once.
    if (active < maxActive) active++;
    finish(req, 2);
  }
}
function sweep() {
  if (live.size === 0) {
    clearInterval(sweeper);
    sweeper = null;
    dropSpares();
    return;
  }
  const t = now();
  const expired = [];
  for (const req of live.values()) if (t >= req.deadline) expired.push(req);
  // After the next poll: an answer already waiting in the kernel is read before the probe is called filtered.
  if (expired.length > 0) setImmediate(expire, expired);
}
function start(id, host, port, timeoutMs) {
  const v6 = host.includes(":");
  const req = new TCPConnectWrap();
  req.oncomplete = oncomplete;
  req.id = id;
  req.v6 = v6;
  req.done = false;
  req.started = now();
  req.deadline = req.started + timeoutMs;
  live.set(id, req);
  let handle = reuse ? (v6 ? spare6 : spare4).pop() : undefined;
  let err = 0;
  if (handle !== undefined) {
    err = v6 ? handle.connect6(req, host, port) : handle.connect(req, host, port);
    if (err === aborted) err = v6 ? handle.connect6(req, host, port) : handle.connect(req, host, port);
    else if (err !== 0) {
      handle.close();
      handle = null;
    }
  }
  if (handle === undefined || handle === null) {
    const retried = handle === null;
    handle = new TCP(SOCKET);
    err = v6 ? handle.connect6(req, host, port) : handle.connect(req, host, port);
    // A fresh socket takes the address the refused one would not: no reuse on this system.
    if (retried && err === 0) {
      reuse = false;
      dropSpares();
    }
  }
  req.handle = handle;
  if (err !== 0) finish(req, classify(err), false);
}
process.on("message", (m) => {
  if (m.t === "p") {
    for (const h of m.h) hosts.push(h);
    const b = m.b;
    for (let i = 0; i < b.length; i += 4) pending.push(b[i], hosts[b[i + 1]], b[i + 2], b[i + 3]);
    if (!pumping) pump();
  } else if (m.t === "c") {
    for (const id of m.ids) {
      const req = live.get(id);
      if (req === undefined) {
        if (head < pending.length) cancelled.add(id);
        continue;
      }
      req.done = true;
      live.delete(id);
      req.handle.close();
    }
    if (!pumping) pump();
  } else if (m.t === "i") {
    closedCodes = new Set(m.closed);
    localCodes = new Set(m.local);
    refused = m.refused;
    aborted = m.aborted;
    reuse = m.reuse;
    sweepMs = m.sweepMs;
    active = m.active;
    maxActive = m.maxActive;
  } else if (m.t === "s") {
    const u = process.resourceUsage();
    process.send({ t: "s", q: m.q, rss: process.memoryUsage.rss(), maxRss: u.maxRSS * 1024, cpu: u.userCPUTime + u.systemCPUTime });
  }
});
process.on("disconnect", () => process.exit(0));
if (TCP !== undefined) process.send({ t: "ready" });
`;

const USAGE_TIMEOUT_MS = 5_000;

/** Messages a helper sends back. */
type HelperMessage =
  | { t: "ready" }
  | { t: "x"; error: string }
  | { t: "r"; b: number[] }
  | { t: "s"; q: number; rss: number; maxRss: number; cpu: number };

export interface HelperEvents {
  /** The helper can take probes. */
  ready(): void;
  /** Outcomes as flat triples: id, outcome code, round-trip ms. */
  results(flat: readonly number[]): void;
  /** The helper is gone (could not start, crashed, was killed, or cannot probe on this Node). */
  gone(reason: string): void;
}

export interface HelperUsage {
  readonly pid: number;
  readonly rssBytes: number;
  readonly maxRssBytes: number;
  /** CPU time used so far (user + system), µs. */
  readonly cpuMicros: number;
}

/** The parent's end of one helper process. */
export class HelperLink {
  readonly child: ChildProcess;
  ready = false;
  gone = false;
  /** When the helper last said anything (or was last given work while idle), performance.now() ms. */
  lastHeard = 0;
  /** The longest timeout among the probes out since the helper was last idle, ms. */
  longestTimeout = 0;
  /** Batches sent and answer messages received (for reports). */
  batchesSent = 0;
  answersReceived = 0;
  /** Probes sent and not yet settled (the engine counts them down with {@link settled}). */
  outstanding = 0;
  private readonly hostIndex = new Map<string, number>();
  private readonly usageWaiters = new Map<number, (m: HelperUsage | null) => void>();
  private nextQuery = 0;

  constructor(
    codes: StatusCodes,
    settings: { sweepMs: number; reuse: boolean; active: number; maxActive: number },
    events: HelperEvents,
  ) {
    this.child = spawn(process.execPath, ["--max-old-space-size=64", "-e", HELPER_SOURCE], {
      stdio: ["ignore", "ignore", "ignore", "ipc"],
      // The parent's loaders (tsx, a test runner's hooks) have nothing to do in the helper.
      env: { ...process.env, NODE_OPTIONS: "" },
      windowsHide: true,
      serialization: "json",
    });
    const leave = (reason: string) => {
      if (this.gone) return;
      this.gone = true;
      this.ready = false;
      for (const waiter of [...this.usageWaiters.values()]) waiter(null);
      this.usageWaiters.clear();
      this.updateRef();
      events.gone(reason);
    };
    this.child.on("error", (error) => leave(`helper failed: ${error.message}`));
    this.child.on("exit", (code, signal) => leave(`helper exited (${signal ?? code})`));
    this.child.on("message", (message: HelperMessage) => {
      this.lastHeard = performance.now();
      switch (message.t) {
        case "r":
          this.answersReceived++;
          events.results(message.b);
          break;
        case "ready":
          this.ready = true;
          events.ready();
          break;
        case "s":
          {
            const waiter = this.usageWaiters.get(message.q);
            this.usageWaiters.delete(message.q);
            waiter?.({
              pid: this.child.pid ?? 0,
              rssBytes: message.rss,
              maxRssBytes: message.maxRss,
              cpuMicros: message.cpu,
            });
          }
          break;
        case "x":
          leave(`helper cannot probe: ${message.error}`);
          this.child.kill();
          break;
      }
    });
    this.post({
      t: "i",
      closed: codes.closed,
      local: codes.localFailure,
      refused: codes.refused,
      aborted: codes.aborted,
      reuse: settings.reuse,
      sweepMs: settings.sweepMs,
      active: settings.active,
      maxActive: settings.maxActive,
    });
    // An idle helper never keeps the scanner alive; it is referenced only while probes or questions are out.
    this.updateRef();
  }

  /** Sends probes; `ids`, `hosts`, `ports` and `timeouts` are parallel. */
  send(
    ids: readonly number[],
    hosts: readonly string[],
    ports: readonly number[],
    timeouts: readonly number[],
  ): boolean {
    const h: string[] = [];
    const b: number[] = [];
    for (let i = 0; i < ids.length; i++) {
      const host = hosts[i]!;
      let index = this.hostIndex.get(host);
      if (index === undefined) {
        index = this.hostIndex.size;
        this.hostIndex.set(host, index);
        h.push(host);
      }
      b.push(ids[i]!, index, ports[i]!, timeouts[i]!);
    }
    if (!this.post({ t: "p", h, b })) return false;
    this.batchesSent++;
    if (this.outstanding === 0) {
      this.lastHeard = performance.now();
      this.longestTimeout = 0;
    }
    for (const t of timeouts) if (t > this.longestTimeout) this.longestTimeout = t;
    this.outstanding += ids.length;
    this.updateRef();
    return true;
  }

  /** Counts probes of this helper that are over (answered, cancelled or timed out by the parent). */
  settled(count: number): void {
    this.outstanding -= count;
    this.updateRef();
  }

  /** Asks the helper to close these probes (the parent has already settled them). */
  cancel(ids: readonly number[]): void {
    this.post({ t: "c", ids });
  }

  usage(): Promise<HelperUsage | null> {
    if (this.gone) return Promise.resolve(null);
    const q = this.nextQuery++;
    return new Promise((resolve) => {
      // A helper too busy or stuck to answer within a while is reported as unknown, not waited on forever.
      const timer = setTimeout(() => this.usageWaiters.get(q)?.(null), USAGE_TIMEOUT_MS);
      this.usageWaiters.set(q, (usage) => {
        clearTimeout(timer);
        this.usageWaiters.delete(q);
        resolve(usage);
        this.updateRef();
      });
      this.updateRef();
      if (!this.post({ t: "s", q })) this.usageWaiters.get(q)?.(null);
    });
  }

  close(): void {
    this.gone = true;
    this.ready = false;
    for (const waiter of [...this.usageWaiters.values()]) waiter(null);
    this.updateRef();
    if (this.child.connected) this.child.disconnect();
    this.child.kill();
  }

  private post(message: object): boolean {
    if (this.gone || !this.child.connected) return false;
    try {
      this.child.send(message);
      return true;
    } catch {
      return false;
    }
  }

  private referenced: boolean | null = null;

  private updateRef(): void {
    const wanted = !this.gone && (this.outstanding > 0 || this.usageWaiters.size > 0);
    if (wanted === this.referenced) return;
    this.referenced = wanted;
    if (wanted) {
      this.child.ref();
      this.child.channel?.ref();
    } else {
      this.child.unref();
      this.child.channel?.unref();
    }
  }
}
