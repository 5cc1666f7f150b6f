import { BlockList, isIP } from "node:net";
import { ipv4FromGroups, ipv6Groups } from "./ipv6.js";

// Addresses an outbound request must never reach unless the operator allows private targets (SSRF guard for
// callback URLs and the external scan): loopback, RFC 1918, CGNAT, link-local, ULA, multicast, documentation,
// benchmarking and other special-purpose ranges (IANA special-purpose registries).
const NON_PUBLIC_V4 = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NON_PUBLIC_V4.addSubnet(net, prefix, "ipv4");
}
// IPv6 ranges that are never a public host. The forms that embed an IPv4 address (mapped, translated, NAT64,
// 6to4) are judged by the embedded address instead (see embeddedIpv4), and ::/96 (loopback, unspecified and the
// deprecated IPv4-compatible form) is refused outright before this list is consulted.
const NON_PUBLIC_V6 = new BlockList();
for (const [net, prefix] of [
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215): translates to whatever the local network routes
  ["100::", 64], // discard-only
  ["2001::", 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID…
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation (RFC 9637)
  ["5f00::", 16], // SRv6 SIDs (RFC 9602)
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local, deprecated (RFC 3879) but still routed inside some networks
  ["ff00::", 8], // multicast
] as const) {
  NON_PUBLIC_V6.addSubnet(net, prefix, "ipv6");
}

const zeros = (groups: readonly number[], from: number, to: number) => groups.slice(from, to).every((g) => g === 0);

/**
 * The IPv4 address an IPv6 address carries, for the forms that deliver to it: IPv4-mapped `::ffff:0:0/96`,
 * IPv4-translated `::ffff:0:0:0/96` (RFC 2765), the NAT64 well-known prefix `64:ff9b::/96` (RFC 6052) and 6to4
 * `2002::/16` (RFC 3056). `[64:ff9b::a9fe:a9fe]` is 169.254.169.254 to a host behind NAT64.
 */
export function embeddedIpv4(groups: readonly number[]): string | null {
  if (zeros(groups, 0, 5) && groups[5] === 0xffff) return ipv4FromGroups(groups[6]!, groups[7]!);
  if (zeros(groups, 0, 4) && groups[4] === 0xffff && groups[5] === 0) return ipv4FromGroups(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(groups, 2, 6)) return ipv4FromGroups(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return ipv4FromGroups(groups[1]!, groups[2]!);
  return null;
}

/** True for a literal IP address that is publicly routable. Anything else (names, garbage) is false. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NON_PUBLIC_V4.check(address, "ipv4");
  const groups = ipv6Groups(address);
  if (!groups) return false;
  // ::/96: unspecified, loopback and the deprecated IPv4-compatible form (::127.0.0.1 reaches loopback on some
  // stacks); no public host lives there.
  if (zeros(groups, 0, 6)) return false;
  const v4 = embeddedIpv4(groups);
  if (v4 !== null) return isPublicAddress(v4);
  return !NON_PUBLIC_V6.check(address, "ipv6");
}

/**
 * The SSRF address policy (docs/security.md, "Network safety") for every address a host resolves to — scan targets and
 * webhook receivers alike: the addresses it refuses (none when the operator allows private targets). One refused
 * address refuses the whole host: a name that mixes public and private answers is how DNS rebinding attacks look.
 */
export function checkAddressPolicy(addresses: readonly string[], allowPrivateTargets: boolean): string[] {
  if (allowPrivateTargets) return [];
  return addresses.filter((a) => !isPublicAddress(a));
}
