import { BlockList, isIP } from "node:net";

/**
 * Which proxies in front of the server are trusted to report the client's address (HCS_TRUST_PROXY):
 * none (the socket's peer is the client), a number of hops (a fixed chain of that many proxies, e.g. one load
 * balancer), or a list of proxy addresses and networks (every hop from such an address is trusted).
 */
export type TrustProxy =
  | { readonly kind: "none" }
  | { readonly kind: "hops"; readonly hops: number }
  | { readonly kind: "addresses"; readonly proxies: BlockList; readonly text: string };

export const TRUST_NONE: TrustProxy = { kind: "none" };

/**
 * Parses HCS_TRUST_PROXY: `0`/`false` (none), `1`…`10` hops (`true` = 1), or a comma-separated list of proxy
 * addresses and CIDR networks. Returns the problem as a string for a bad value (the caller names the variable).
 */
export function parseTrustProxy(raw: string): TrustProxy | string {
  const v = raw.trim().toLowerCase();
  if (v === "" || v === "0" || v === "false" || v === "no") return TRUST_NONE;
  if (v === "true" || v === "yes") return { kind: "hops", hops: 1 };
  if (/^[0-9]+$/.test(v)) {
    const hops = Number(v);
    return hops >= 1 && hops <= 10 ? { kind: "hops", hops } : "a hop count must be between 1 and 10";
  }
  const proxies = new BlockList();
  for (const entry of v.split(",").map((e) => e.trim())) {
    const [address, prefix, extra] = entry.split("/");
    const family = isIP(address ?? "");
    if (!address || family === 0 || extra !== undefined || address.includes("%"))
      return `${JSON.stringify(entry)} is not an IP address or CIDR network`;
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) {
      proxies.addAddress(address, type);
      continue;
    }
    const bits = /^[0-9]{1,3}$/.test(prefix) ? Number(prefix) : -1;
    if (bits < 0 || bits > (family === 4 ? 32 : 128)) return `${JSON.stringify(entry)} has an invalid prefix length`;
    proxies.addSubnet(address, bits, type);
  }
  return { kind: "addresses", proxies, text: v };
}

/** An address as the hop that appended it wrote it: brackets, ports and IPv4-mapped IPv6 removed; null if not an IP. */
export function normalizeAddress(raw: string): string | null {
  let a = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::[0-9]+)?$/.exec(a);
  if (bracketed) a = bracketed[1]!;
  else if (/^[0-9.]+:[0-9]+$/.test(a)) a = a.slice(0, a.lastIndexOf(":"));
  // Zone ids (fe80::1%eth0) name a local interface; they never identify a remote client.
  if (a.includes("%")) return null;
  const family = isIP(a);
  if (family === 0) return null;
  const mapped = /^::ffff:([0-9]+\.[0-9]+\.[0-9]+\.[0-9]+)$/i.exec(a);
  if (mapped) return mapped[1]!;
  return family === 6 ? a.toLowerCase() : a;
}

export interface ClientAddress {
  /** The client's address: the one the outermost trusted hop saw (always a valid IP, or "unknown"). */
  readonly ip: string;
  /** How many trusted proxies the request passed, the socket's peer included (0 for a direct client). */
  readonly trustedHops: number;
}

const isTrustedHop = (trust: TrustProxy, address: string, hop: number): boolean =>
  trust.kind === "hops"
    ? hop < trust.hops
    : trust.kind === "addresses" && trust.proxies.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");

/**
 * The client address of a request. X-Forwarded-For is a list each proxy appends its peer to, so only the entries
 * written by trusted proxies — the rightmost ones — can be believed: walk from the socket's peer leftwards while
 * the current hop is trusted; the first untrusted address is the client. Anything left of it was written by the
 * client and is ignored. An entry that is not an IP address stops the walk at the last address a trusted hop
 * vouched for, so the result is never client-chosen text.
 */
export function clientAddressOf(
  socketAddress: string | undefined,
  forwardedFor: string,
  trust: TrustProxy,
): ClientAddress {
  const peer = normalizeAddress(socketAddress ?? "") ?? "unknown";
  if (trust.kind === "none" || peer === "unknown") return { ip: peer, trustedHops: 0 };
  const chain = forwardedFor === "" ? [] : forwardedFor.split(",");
  let current = peer;
  let trusted = 0;
  for (let i = chain.length; isTrustedHop(trust, current, trusted); i--) {
    trusted++;
    // A trusted proxy with nobody before it, or an entry that is not an address: the proxy is as far as we see.
    const next = i > 0 ? normalizeAddress(chain[i - 1]!) : null;
    if (next === null) break;
    current = next;
  }
  return { ip: current, trustedHops: trusted };
}

/**
 * The protocol the outermost trusted proxy received the request on (X-Forwarded-Proto, one entry per hop,
 * appended like X-Forwarded-For); null when no trusted proxy reported one.
 */
export function forwardedProtoOf(header: string, trustedHops: number): string | null {
  if (trustedHops === 0 || header === "") return null;
  const entries = header.split(",").map((e) => e.trim().toLowerCase());
  // Proxies that overwrite the header leave a single entry; those that append leave one per hop.
  const entry = entries.length >= trustedHops ? entries[entries.length - trustedHops] : entries[0];
  return entry || null;
}
