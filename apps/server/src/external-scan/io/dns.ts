import { Resolver } from "node:dns/promises";
import type { DnsAnswer, DnsFailureCode, DnsIO, MxRecord } from "./types.js";

export interface DnsServerAddress {
  readonly host: string;
  readonly port: number;
}

export interface NodeDnsOptions {
  /** Servers to ask; empty or absent means the system's resolv.conf servers. */
  readonly servers?: readonly DnsServerAddress[];
  /** Hard limit for one query, retries included (time spent waiting for a free slot is not counted). */
  readonly timeoutMs: number;
  /** Queries in flight at once across every scan sharing this IO; the rest wait for a slot. */
  readonly maxConcurrent?: number;
}

/**
 * Fifty scans started together would send some 1,500 datagrams at once: a resolver's receive buffer overflows,
 * drops turn into c-ares retry timeouts and checks time out. Queued, the same queries all answer in about a
 * second on loopback, and a real resolver is not flooded.
 */
export const DEFAULT_MAX_CONCURRENT_DNS_QUERIES = 32;

/** A counting semaphore: `run(fn)` waits for a free slot, and gives up waiting when the signal aborts. */
function querySlots(max: number) {
  let active = 0;
  const waiting = new Set<() => void>();
  return async <T>(signal: AbortSignal, fn: () => Promise<T>, onAbort: () => T): Promise<T> => {
    while (active >= max) {
      if (signal.aborted) return onAbort();
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiting.delete(wake);
          signal.removeEventListener("abort", wake);
          resolve();
        };
        waiting.add(wake);
        signal.addEventListener("abort", wake, { once: true });
      });
    }
    active++;
    try {
      return await fn();
    } finally {
      active--;
      const [next] = waiting;
      next?.();
    }
  };
}

// c-ares error codes (node:dns constants) to our codes; anything else is "error".
const FAILURES: Readonly<Record<string, DnsFailureCode>> = {
  ENOTFOUND: "nxdomain",
  ENODATA: "nodata",
  ETIMEOUT: "timeout",
  ECANCELLED: "timeout",
  ESERVFAIL: "servfail",
  EREFUSED: "server_refused",
  ECONNREFUSED: "unreachable",
};

/** `host:port` as c-ares wants it (IPv6 in brackets). */
export function formatDnsServer(server: DnsServerAddress): string {
  return server.host.includes(":") ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`;
}

/**
 * DNS through node:dns's c-ares Resolver, pointed at the configured servers only (never getaddrinfo, so
 * /etc/hosts and the system's search domains play no part). Each query gets its own Resolver so that a
 * deadline can cancel exactly that query.
 */
export function createNodeDnsIO(options: NodeDnsOptions): DnsIO {
  const servers = (options.servers ?? []).map(formatDnsServer);
  const slots = querySlots(options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT_DNS_QUERIES);

  function query<T>(signal: AbortSignal, ask: (resolver: Resolver) => Promise<T>): Promise<DnsAnswer<T>> {
    return slots(
      signal,
      () => queryNow(signal, ask),
      () => ({ ok: false, code: "timeout", detail: "cancelled while waiting for a query slot" }),
    );
  }

  async function queryNow<T>(signal: AbortSignal, ask: (resolver: Resolver) => Promise<T>): Promise<DnsAnswer<T>> {
    if (signal.aborted) return { ok: false, code: "timeout", detail: "cancelled before the query was sent" };
    // c-ares retries on its own; two tries of half the budget each keeps one lost UDP datagram from failing a query.
    const resolver = new Resolver({ timeout: Math.max(100, Math.floor(options.timeoutMs / 2)), tries: 2 });
    if (servers.length > 0) resolver.setServers(servers);
    const cancel = () => resolver.cancel();
    const timer = setTimeout(cancel, options.timeoutMs);
    signal.addEventListener("abort", cancel, { once: true });
    try {
      return { ok: true, records: await ask(resolver) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "";
      return { ok: false, code: FAILURES[code] ?? "error", detail: code || String(error) };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", cancel);
    }
  }

  return {
    txt: (name, signal) => query(signal, async (r) => (await r.resolveTxt(name)).map((chunks) => chunks.join(""))),
    mx: (name, signal) =>
      query(
        signal,
        async (r): Promise<MxRecord[]> =>
          (await r.resolveMx(name)).map((mx) => ({ exchange: mx.exchange, priority: mx.priority })),
      ),
    addresses: async (name, signal) => {
      const [v4, v6] = await Promise.all([
        query(signal, (r) => r.resolve4(name)),
        query(signal, (r) => r.resolve6(name)),
      ]);
      return mergeAddressAnswers(v4, v6);
    },
  };
}

/**
 * One answer from the A and AAAA answers: any address wins; otherwise the more telling failure (a name
 * that does not exist beats "no AAAA", an unknown outcome beats both).
 */
export function mergeAddressAnswers(v4: DnsAnswer<string[]>, v6: DnsAnswer<string[]>): DnsAnswer<string[]> {
  const addresses = [...(v4.ok ? v4.records : []), ...(v6.ok ? v6.records : [])];
  if (addresses.length > 0) return { ok: true, records: addresses };
  const failures = [v4, v6].filter((a): a is Extract<DnsAnswer<string[]>, { ok: false }> => !a.ok);
  const unknown = failures.find((f) => f.code !== "nxdomain" && f.code !== "nodata");
  if (unknown) return unknown;
  if (failures.some((f) => f.code === "nxdomain")) return { ok: false, code: "nxdomain" };
  return { ok: false, code: "nodata" };
}
