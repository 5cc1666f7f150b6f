import { availableParallelism } from "node:os";
import type { ConnectResult } from "./host.js";
import { HelperLink, type HelperUsage } from "./probe-helper/link.js";
import {
  connectResult,
  loadTcpWrap,
  Outcome,
  type OutcomeCode,
  SOCKET_REUSE,
  startConnect,
  statusClassifier,
  statusCodes,
  type TcpConnectRequest,
  type TcpHandle,
  type TcpWrapBinding,
} from "./tcp-wrap.js";

export type ConnectFn = (host: string, port: number, timeoutMs: number, signal?: AbortSignal) => Promise<ConnectResult>;

export interface ProbeEngineOptions {
  /**
   * Helper processes that take a share of the probes when many are asked for at once (a scan). Default: one when
   * this machine has a second core, else none. 0 keeps every probe in this process.
   */
  readonly helpers?: number;
  /** Start the helpers now, so that their start-up overlaps other work, rather than at the first busy moment. */
  readonly prewarm?: boolean;
  /** How often probes past their deadline are looked for (the timeout's resolution), ms. */
  readonly sweepMs?: number;
  /** Probes this process keeps in flight before it hands further ones to a helper. */
  readonly localWindow?: number;
  /** Probes one helper holds at most (in flight or waiting there for a socket). */
  readonly helperWindow?: number;
  /** Sockets one helper has in flight at most; the rest of its probes wait in the helper, ready to go. */
  readonly helperActive?: number;
  /** Connect refused sockets again rather than opening new ones (default: on Linux; see SOCKET_REUSE). */
  readonly reuseSockets?: boolean;
  /** A built helper entry to run with plain node (default: found beside this module; see probe-helper/launch.ts). */
  readonly helperEntry?: string;
  /** Loads libuv's TCP handle (default: host/tcp-wrap.ts's adapter); null keeps every probe on net.Socket. */
  readonly loadBinding?: () => TcpWrapBinding | null;
}

export interface ProbeEngineStats {
  /** Probes made in this process. */
  readonly localProbes: number;
  /** Local probes made on a refused socket connected again (SOCKET_REUSE) rather than a new one. */
  readonly reusedSockets: number;
  /** Probes made by helper processes. */
  readonly helperProbes: number;
  /** Probes a helper held when it went away, made again here. */
  readonly requeued: number;
  /** Helpers started (including ones that later went away). */
  readonly helpersStarted: number;
  /** Messages exchanged with the helpers still running: probe batches sent, answer batches received. */
  readonly helperBatches: number;
  readonly helperAnswers: number;
  /** Helpers able to take probes now. */
  readonly helpersReady: number;
  /** Why the last helper went away, if one did. */
  readonly helperError: string | null;
}

/**
 * Connect probes for the whole process, on libuv TCP handles. One engine serves every caller of `connect` (the
 * ports phase's scanner, discovery's liveness probes), so what is true of its sockets is true of all:
 *  - timeouts come from one sweeping timer over the probes in flight (not a timer per probe): a probe is answered
 *    `filtered` between its deadline and one sweep later;
 *  - cancellation costs one listener per AbortSignal (not one per probe): on abort every probe of that signal is
 *    closed and answered `filtered` at once;
 *  - the sockets it holds are the callers' concurrency: it queues nothing beyond what it was asked for.
 * When more probes are in flight than `localWindow`, further ones go to a helper process (host/probe-helper/)
 * while it has room, so a scan uses two cores; the helper's answers are the same states. A helper that goes away
 * (crash, kill) has its probes made again here; one that stops answering past the deadline is dropped the same way.
 * Answers null when libuv's TCP handle is not usable on this Node (the caller keeps net.Socket).
 */
export function createProbeEngine(options: ProbeEngineOptions = {}): ProbeEngine | null {
  const binding = (options.loadBinding ?? loadTcpWrap)();
  return binding === null ? null : new ProbeEngine(binding, options);
}

/**
 * A helper with probes out that has said nothing for the longest of their timeouts plus this is called stuck (its
 * probes are made here instead). It answers as probes finish, each within its timeout after it starts.
 */
const HELPER_GRACE_MS = 2_000;
const DEFAULT_SWEEP_MS = 10;
const DEFAULT_LOCAL_WINDOW = 128;
const DEFAULT_HELPER_WINDOW = 768;
const DEFAULT_HELPER_ACTIVE = 256;
/** Helpers started after one went away, at most: a helper that cannot live here is not restarted forever. */
const RESPAWNS = 2;
/** Spare sockets kept at most per address family (they are a share of the sockets just in flight). */
const MAX_SPARES = 1024;
const FILTERED_AT_ONCE: ConnectResult = Object.freeze({ state: "filtered", rttMs: 0 });

class Slot {
  handle: TcpHandle | null = null;
  helper: HelperLink | null = null;
  started = 0;
  deadline = Number.POSITIVE_INFINITY;
  done = false;
  constructor(
    readonly id: number,
    readonly host: string,
    readonly port: number,
    readonly timeoutMs: number,
    readonly signal: AbortSignal | undefined,
    readonly resolve: (result: ConnectResult) => void,
  ) {}
}

interface SlotRequest extends TcpConnectRequest {
  slot: Slot;
}

export class ProbeEngine {
  readonly connect: ConnectFn;
  private readonly live = new Map<number, Slot>();
  private queue: Slot[] = [];
  private localInFlight = 0;
  private nextId = 1;
  private sweeper: NodeJS.Timeout | null = null;
  private flushQueued = false;
  private readonly links: HelperLink[] = [];
  private readonly watched = new WeakSet<AbortSignal>();
  private readonly helperCount: number;
  private readonly sweepMs: number;
  private readonly localWindow: number;
  private readonly helperWindow: number;
  private readonly helperActive: number;
  private readonly helperEntry: string | undefined;
  private spawnsLeft: number;
  private closed = false;
  private counts = { localProbes: 0, reusedSockets: 0, helperProbes: 0, requeued: 0, helpersStarted: 0 };
  private helperError: string | null = null;

  private readonly tcp: TcpWrapBinding;
  private readonly codes = statusCodes();
  private readonly classify: (status: number) => OutcomeCode;
  private readonly onComplete: (this: SlotRequest, status: number) => void;
  /** Refused sockets kept for the next probe of the same family (see SOCKET_REUSE); emptied when idle. */
  private readonly spare4: TcpHandle[] = [];
  private readonly spare6: TcpHandle[] = [];
  private reuse: boolean;

  constructor(binding: TcpWrapBinding, options: ProbeEngineOptions) {
    this.tcp = binding;
    this.helperCount = Math.max(0, Math.floor(options.helpers ?? defaultHelpers()));
    this.sweepMs = Math.max(1, options.sweepMs ?? DEFAULT_SWEEP_MS);
    this.localWindow = Math.max(1, options.localWindow ?? DEFAULT_LOCAL_WINDOW);
    this.helperWindow = Math.max(1, options.helperWindow ?? DEFAULT_HELPER_WINDOW);
    this.helperActive = Math.max(1, Math.min(this.helperWindow, options.helperActive ?? DEFAULT_HELPER_ACTIVE));
    this.helperEntry = options.helperEntry;
    this.spawnsLeft = this.helperCount + RESPAWNS;
    this.reuse = (options.reuseSockets ?? SOCKET_REUSE) && this.codes.refused !== null && this.codes.aborted !== null;
    const classify = statusClassifier(this.codes);
    this.classify = classify;
    const refused = this.codes.refused;
    const engine = this;
    // libuv calls back with the request as `this`: one function for every probe, no closure per probe.
    this.onComplete = function (this: SlotRequest, status: number): void {
      const slot = this.slot;
      if (!slot.done) engine.settle(slot, classify(status), performance.now() - slot.started, status === refused);
    };
    this.connect = (host, port, timeoutMs, signal) => {
      if (signal?.aborted) return Promise.resolve(FILTERED_AT_ONCE);
      return new Promise((resolve) => {
        // A timeout that is not a positive number (NaN, negative) expires at the next sweep, as setTimeout would.
        const slot = new Slot(this.nextId++, host, port, timeoutMs > 0 ? timeoutMs : 0, signal, resolve);
        if (signal !== undefined && !this.watched.has(signal)) this.watch(signal);
        if (this.localInFlight < this.localWindow || this.helperCount === 0) this.startLocal(slot);
        else {
          this.queue.push(slot);
          this.scheduleFlush();
        }
      });
    };
    if (options.prewarm) this.warm();
  }

  /** Starts the helpers now (if this engine uses any), so that they are ready when a scan begins. */
  warm(): void {
    while (!this.closed && this.links.length < this.helperCount && this.spawnsLeft > 0) this.spawnHelper();
  }

  stats(): ProbeEngineStats {
    return {
      ...this.counts,
      helpersReady: this.links.filter((l) => l.ready).length,
      helperBatches: this.links.reduce((n, l) => n + l.batchesSent, 0),
      helperAnswers: this.links.reduce((n, l) => n + l.answersReceived, 0),
      helperError: this.helperError,
    };
  }

  /** Memory and CPU time of the helper processes, for reports and benchmarks. */
  async helperUsage(): Promise<HelperUsage[]> {
    const all = await Promise.all(this.links.map((l) => l.usage()));
    return all.filter((m): m is HelperUsage => m !== null);
  }

  /** Stops the helpers (their probes in flight are made here) and uses none from now on. */
  close(): void {
    this.closed = true;
    if (this.live.size === 0) this.dropSpares();
    for (const link of [...this.links]) {
      link.close();
      this.dropHelper(link, "closed");
    }
  }

  private startLocal(slot: Slot): void {
    const req = new this.tcp.TCPConnectWrap() as SlotRequest;
    req.oncomplete = this.onComplete;
    req.slot = slot;
    this.localInFlight++;
    this.counts.localProbes++;
    slot.started = performance.now();
    slot.deadline = slot.started + slot.timeoutMs;
    this.live.set(slot.id, slot);
    this.armSweeper();
    const spares = this.reuse ? (slot.host.includes(":") ? this.spare6 : this.spare4) : null;
    const started = startConnect(this.tcp, spares, req, slot.host, slot.port, this.codes.aborted);
    if (started.reused) this.counts.reusedSockets++;
    if (started.reuseBroken) {
      this.reuse = false;
      this.dropSpares();
    }
    slot.handle = started.handle;
    const err = started.status;
    if (err !== 0) this.settle(slot, this.classify(err), performance.now() - slot.started, false);
  }

  private spawnHelper(): void {
    this.spawnsLeft--;
    this.counts.helpersStarted++;
    const settings = {
      sweepMs: this.sweepMs,
      reuse: this.reuse,
      active: this.helperActive,
      maxActive: this.helperWindow,
    };
    const link: HelperLink = new HelperLink(
      this.codes,
      settings,
      {
        ready: () => this.scheduleFlush(),
        results: (flat) => this.onResults(link, flat),
        gone: (reason) => this.dropHelper(link, reason),
      },
      this.helperEntry,
    );
    this.links.push(link);
  }

  /** `reusable`: the socket was refused and may serve the next probe (SOCKET_REUSE). */
  private settle(slot: Slot, code: number, rttMs: number, reusable = false): void {
    slot.done = true;
    this.live.delete(slot.id);
    if (slot.handle !== null) {
      if (reusable && this.reuse) {
        const spares = slot.host.includes(":") ? this.spare6 : this.spare4;
        if (spares.length < MAX_SPARES) spares.push(slot.handle);
        else slot.handle.close();
      } else slot.handle.close();
      slot.handle = null;
      this.localInFlight--;
    } else if (slot.helper !== null) {
      slot.helper.settled(1);
      slot.helper = null;
    }
    slot.resolve(connectResult(code, rttMs));
  }

  private scheduleFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    // After the poll phase: every answer of this loop iteration has been handled and its callers have asked for
    // their next probes, so helpers get them in one message.
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushQueued = false;
    if (this.queue.length === 0) return;
    const queue = this.queue;
    this.queue = [];
    if (!this.closed && this.links.length < this.helperCount && this.spawnsLeft > 0) this.warm();
    let from = 0;
    for (const link of this.links) {
      const room = Math.min(this.helperWindow - link.outstanding, queue.length - from);
      if (!link.ready || room <= 0) continue;
      from = this.sendTo(link, queue, from, from + room);
    }
    for (let i = from; i < queue.length; i++) {
      const slot = queue[i]!;
      if (!slot.done) this.startLocal(slot);
    }
  }

  /** Hands queue[from, to) to a helper; answers where the next unsent slot is. */
  private sendTo(link: HelperLink, queue: readonly Slot[], from: number, to: number): number {
    const ids: number[] = [];
    const hosts: string[] = [];
    const ports: number[] = [];
    const timeouts: number[] = [];
    const sent: Slot[] = [];
    for (let i = from; i < to; i++) {
      const slot = queue[i]!;
      if (slot.done) continue;
      ids.push(slot.id);
      hosts.push(slot.host);
      ports.push(slot.port);
      timeouts.push(slot.timeoutMs);
      sent.push(slot);
    }
    if (sent.length === 0) return to;
    if (!link.send(ids, hosts, ports, timeouts)) return from;
    const now = performance.now();
    for (const slot of sent) {
      slot.helper = link;
      slot.started = now;
      // The helper times its probes from when it starts them; the parent watches the helper (see sweep).
      slot.deadline = Number.POSITIVE_INFINITY;
      this.live.set(slot.id, slot);
    }
    this.counts.helperProbes += sent.length;
    this.armSweeper();
    return to;
  }

  private onResults(link: HelperLink, flat: readonly number[]): void {
    for (let i = 0; i < flat.length; i += 3) {
      const slot = this.live.get(flat[i]!);
      // Unknown: cancelled or timed out here first; the helper's late answer changes nothing.
      if (slot === undefined || slot.helper !== link) continue;
      this.settle(slot, flat[i + 1]!, flat[i + 2]!);
    }
  }

  /** A helper went away or is given up on: its unanswered probes are made again in this process. */
  private dropHelper(link: HelperLink, reason: string): void {
    const index = this.links.indexOf(link);
    if (index < 0) return;
    this.links.splice(index, 1);
    if (reason !== "closed") this.helperError = reason;
    // A helper that cannot probe on this Node (no usable TCP handle) is not started again.
    if (reason.startsWith("helper cannot probe")) this.spawnsLeft = 0;
    const orphans: Slot[] = [];
    for (const slot of this.live.values()) if (slot.helper === link) orphans.push(slot);
    for (const slot of orphans) {
      this.live.delete(slot.id);
      slot.helper = null;
      link.settled(1);
      this.counts.requeued++;
      this.startLocal(slot);
    }
    if (!link.gone) link.close();
  }

  private watch(signal: AbortSignal): void {
    this.watched.add(signal);
    signal.addEventListener("abort", () => this.abort(signal), { once: true });
  }

  private abort(signal: AbortSignal): void {
    const now = performance.now();
    const cancels = new Map<HelperLink, number[]>();
    const stopped: Slot[] = [];
    for (const slot of this.live.values()) if (slot.signal === signal) stopped.push(slot);
    for (const slot of stopped) {
      if (slot.helper !== null) {
        const ids = cancels.get(slot.helper) ?? [];
        ids.push(slot.id);
        cancels.set(slot.helper, ids);
      }
      this.settle(slot, Outcome.filtered, now - slot.started);
    }
    for (const slot of this.queue) {
      if (slot.signal !== signal || slot.done) continue;
      slot.done = true;
      slot.resolve(FILTERED_AT_ONCE);
    }
    for (const [link, ids] of cancels) link.cancel(ids);
  }

  private armSweeper(): void {
    if (this.sweeper === null) this.sweeper = setInterval(() => this.sweep(), this.sweepMs);
  }

  /**
   * Timers run before the loop polls for I/O, so an answer that arrived while the loop was busy may still be
   * waiting in the kernel when a probe's deadline is seen to pass. Expiry is therefore applied after the next poll
   * (setImmediate): only a probe still unanswered then is called filtered, however loaded this machine is.
   */
  private sweep(): void {
    const now = performance.now();
    const expired: Slot[] = [];
    for (const slot of this.live.values()) if (now >= slot.deadline) expired.push(slot);
    const silent = this.links.filter(
      (l) => l.outstanding > 0 && now - l.lastHeard > l.longestTimeout + this.sweepMs + HELPER_GRACE_MS,
    );
    if (expired.length > 0 || silent.length > 0) setImmediate(() => this.expire(expired, silent));
    else if (this.live.size === 0 && this.sweeper !== null) {
      // Idle: nothing to time out, and no socket is kept open for later.
      clearInterval(this.sweeper);
      this.sweeper = null;
      this.dropSpares();
    }
  }

  private dropSpares(): void {
    for (const handle of this.spare4) handle.close();
    for (const handle of this.spare6) handle.close();
    this.spare4.length = 0;
    this.spare6.length = 0;
  }

  private expire(expired: readonly Slot[], silent: readonly HelperLink[]): void {
    const now = performance.now();
    for (const slot of expired) {
      if (slot.done || now < slot.deadline || slot.handle === null) continue;
      this.settle(slot, Outcome.filtered, now - slot.started);
    }
    // Still silent after this poll: the helper is not answering, its probes are made here instead.
    for (const link of silent) {
      const limit = link.longestTimeout + this.sweepMs + HELPER_GRACE_MS;
      if (link.outstanding > 0 && now - link.lastHeard > limit) this.dropHelper(link, "helper stopped answering");
    }
  }
}

function defaultHelpers(): number {
  return availableParallelism() > 1 ? 1 : 0;
}
