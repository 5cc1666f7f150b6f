import type { ConnectResult, NetProbe } from "../../host/host.js";
import { DEFAULT_TIMEOUT_BOUNDS, RttEstimator, type TimeoutBounds } from "./rtt.js";

export interface PortScanRequest {
  readonly net: Pick<NetProbe, "connect">;
  readonly hosts: readonly string[];
  readonly ports: readonly number[];
  /** Sockets in flight at most (the host's socket budget). */
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  readonly bounds?: TimeoutBounds;
}

export interface OpenPort {
  readonly host: string;
  readonly port: number;
  readonly rttMs: number;
}

export interface PortScanReport {
  /** Open ports, in host order then port order. */
  readonly open: OpenPort[];
  readonly closed: number;
  readonly filtered: number;
  readonly probes: number;
  /** Filtered probes tried again with the longest timeout. */
  readonly retries: number;
  /** Hosts that answered at least one probe (open or closed): alive. */
  readonly answeringHosts: string[];
  /** Highest number of sockets held at once. */
  readonly peakInFlight: number;
  readonly cancelled: boolean;
}

/** Floor under which a local shortage (EMFILE, no ephemeral ports) never pushes the concurrency. */
const MIN_CONCURRENCY = 16;
/**
 * Probes in flight while targets answer promptly. On loopback or a LAN answers come back in microseconds and the
 * scan is bound by CPU (the kernel's connect path): enough must be out to keep this process and the host's probe
 * helper busy (host/probe-engine.ts: 128 here, up to 768 queued in the helper of which 256 hold sockets), more
 * buys nothing. Each probe that times out raises the bound by one, up to the budget, so silent hosts are waited
 * on in parallel.
 */
const RESPONSIVE_CONCURRENCY = 1024;

interface Probe {
  readonly host: number;
  readonly port: number;
  readonly retry: boolean;
}

/**
 * Asynchronous TCP connect scan of hosts × ports. Probes go out port by port across the hosts (no host sees a burst),
 * with at most `concurrency` sockets in flight. Each host's timeout follows its measured round-trip time; a host
 * never heard from keeps the initial timeout, so a slow link is not mistaken for a filtered one. A probe that timed
 * out on a host that does answer is tried once more with the longest timeout, as nmap retransmits.
 */
export function scanTcpPorts(request: PortScanRequest): Promise<PortScanReport> {
  const { hosts, ports, net, signal } = request;
  const bounds = request.bounds ?? DEFAULT_TIMEOUT_BOUNDS;
  const estimators = hosts.map(() => new RttEstimator(bounds));
  const answered = new Uint8Array(hosts.length);
  const openByHost: OpenPort[][] = hosts.map(() => []);
  const timedOut: Probe[] = [];
  const requeued: Probe[] = [];
  const firstPassTotal = hosts.length * ports.length;
  let next = 0;
  let retryQueue: Probe[] | null = null;
  const ceiling = Math.max(1, request.concurrency);
  let limit = Math.min(ceiling, RESPONSIVE_CONCURRENCY);
  let inFlight = 0;
  let peak = 0;
  let closed = 0;
  let filteredOnRetry = 0;
  let probes = 0;

  return new Promise((resolve) => {
    const take = (): Probe | undefined => {
      const again = requeued.pop();
      if (again) return again;
      if (next < firstPassTotal) {
        const i = next++;
        return { host: i % hosts.length, port: Math.floor(i / hosts.length), retry: false };
      }
      if (retryQueue === null) {
        // Retries wait for the whole first pass: only then is it known which hosts answer at all.
        if (inFlight > 0) return undefined;
        retryQueue = timedOut.filter((p) => answered[p.host] === 1).map((p) => ({ ...p, retry: true }));
      }
      return retryQueue.pop();
    };

    const settle = (probe: Probe, result: ConnectResult) => {
      inFlight--;
      if (result.localFailure) {
        // The answer says nothing about the target: this machine is short of sockets. Back off and ask again.
        limit = Math.max(MIN_CONCURRENCY, Math.floor(inFlight * 0.75));
        requeued.push(probe);
      } else if (result.state === "filtered") {
        limit = Math.min(ceiling, limit + 1);
        if (probe.retry) filteredOnRetry++;
        else timedOut.push(probe);
      } else {
        answered[probe.host] = 1;
        estimators[probe.host]!.observe(result.rttMs);
        if (result.state === "closed") closed++;
        else
          openByHost[probe.host]!.push({
            host: hosts[probe.host]!,
            port: ports[probe.port]!,
            rttMs: round(result.rttMs),
          });
      }
      pump();
    };

    const launch = (probe: Probe) => {
      const timeout = probe.retry ? bounds.maxMs : estimators[probe.host]!.timeoutMs();
      inFlight++;
      probes++;
      peak = Math.max(peak, inFlight);
      net.connect(hosts[probe.host]!, ports[probe.port]!, timeout, signal).then(
        (r) => settle(probe, r),
        () => settle(probe, { state: "filtered", rttMs: timeout }),
      );
    };

    const pump = () => {
      while (inFlight < limit && !signal?.aborted) {
        const probe = take();
        if (!probe) break;
        launch(probe);
      }
      if (inFlight > 0) return;
      const exhausted = next >= firstPassTotal && retryQueue?.length === 0 && requeued.length === 0;
      if (signal?.aborted || exhausted) finish();
    };

    const finish = () => {
      const retried = retryQueue === null ? 0 : timedOut.filter((p) => answered[p.host] === 1).length;
      resolve({
        open: openByHost.flatMap((list) => list.sort((a, b) => a.port - b.port)),
        closed,
        filtered: timedOut.length - retried + filteredOnRetry,
        probes,
        retries: retried,
        answeringHosts: hosts.filter((_, i) => answered[i] === 1),
        peakInFlight: peak,
        cancelled: signal?.aborted === true,
      });
    };

    pump();
  });
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
