import { Resolver } from "node:dns/promises";
import type { DnsAnswer, DnsFailureCode, DnsIO, MxRecord } from "./types.js";

export interface DnsServerAddress {
  readonly host: string;
  readonly port: number;
}

export interface NodeDnsOptions {
  /** Servers to ask; empty or absent means the system's resolv.conf servers. */
  readonly servers?: readonly DnsServerAddress[];
  /** Hard limit for one query, retries included. */
  readonly timeoutMs: number;
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

  async function query<T>(signal: AbortSignal, ask: (resolver: Resolver) => Promise<T>): Promise<DnsAnswer<T>> {
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
