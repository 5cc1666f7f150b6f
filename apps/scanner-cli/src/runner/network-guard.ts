import type { Host, NetProbe } from "../host/host.js";

/**
 * The host as a phase sees it: sockets may only reach the addresses in scope. A probe elsewhere is answered as
 * filtered without sending a packet, so a phase bug can never turn into traffic the operator did not ask for.
 */
export function withNetworkScope(host: Host, allowed: readonly string[], onRefused: (target: string) => void): Host {
  const inScope = new Set(allowed.map((a) => a.toLowerCase()));
  const net: NetProbe = {
    socketBudget: () => host.net.socketBudget(),
    resolve: (name) => host.net.resolve(name),
    connect: async (address, port, timeoutMs, signal) => {
      if (inScope.has(address.toLowerCase())) return host.net.connect(address, port, timeoutMs, signal);
      onRefused(`${address}:${port}`);
      return { state: "filtered", rttMs: 0 };
    },
    tlsProbe: async (address, port, timeoutMs, signal) => {
      if (inScope.has(address.toLowerCase())) return host.net.tlsProbe(address, port, timeoutMs, signal);
      onRefused(`${address}:${port}`);
      return { reachable: false, tls: false, versions: [], cipher: null, certificate: null, error: "out_of_scope" };
    },
  };
  return { ...host, net, platform: host.platform, isPrivileged: host.isPrivileged, now: () => host.now() };
}
