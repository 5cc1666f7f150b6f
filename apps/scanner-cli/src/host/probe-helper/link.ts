import { type ChildProcess, spawn } from "node:child_process";
import type { StatusCodes } from "../tcp-wrap.js";
import { helperArgs } from "./launch.js";
import { type ParentMessage, parseHelperMessage } from "./protocol.js";

/**
 * A helper process that makes TCP connect probes for the scanner, so that a scan uses a second CPU core.
 *
 * Why a process: on loopback or a LAN nearly all of a connect scan's time is the kernel's (socket, connect with the
 * SYN and RST handled inline, close). nmap does it on one core; a second Node process does half the probes in
 * parallel. Worker threads were slower: they share one descriptor table, and socket()/close() contend on it.
 *
 * The helper (./main.ts, ./prober.ts) knows nothing but "connect to these address:port pairs and say what
 * happened"; the parent decides what to probe (after the scope guard) and keeps the authoritative deadline. The
 * messages are in ./protocol.ts. The helper exits when the channel closes (the parent exited, crashed or called
 * close()).
 */
const USAGE_TIMEOUT_MS = 5_000;

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
    entry?: string,
  ) {
    this.child = spawn(process.execPath, ["--max-old-space-size=64", ...helperArgs(entry)], {
      // The helper never writes to the user's terminal (its messages go over IPC only).
      stdio: ["ignore", "ignore", "ignore", "ipc"],
      // The parent's loaders and flags (tsx, a test runner's hooks, --pending-deprecation) have nothing to do there.
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
    this.child.on("message", (raw: unknown) => {
      const message = parseHelperMessage(raw);
      if (message === null) {
        leave("helper sent a message outside the protocol");
        this.child.kill();
        return;
      }
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

  private post(message: ParentMessage): boolean {
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
