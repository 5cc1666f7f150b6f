import { BlockList, isIP } from "node:net";

// Addresses an outbound request must never reach unless the operator allows private targets (SSRF guard for
// callback URLs and the external scan): loopback, RFC 1918, CGNAT, link-local, ULA, multicast, documentation,
// benchmarking and other special-purpose ranges (IANA special-purpose registries).
const NON_PUBLIC = new BlockList();
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
  NON_PUBLIC.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, "ipv6");
}

/** True for a literal IP address that is publicly routable. Anything else (names, garbage) is false. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged by its IPv4 address (a ::ffff:0:0/96 rule in the BlockList
  // would also match every IPv4 address, which Node compares in mapped form).
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  return !NON_PUBLIC.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** True for loopback addresses (127.0.0.0/8, ::1). */
export function isLoopbackAddress(address: string): boolean {
  if (isIP(address) === 4) return address.startsWith("127.");
  return address === "::1" || /^::ffff:127\./i.test(address);
}

/**
 * The SSRF address policy (DESIGN §5) for every address a host resolves to — scan targets and webhook receivers
 * alike: the addresses it refuses (none when the operator allows private targets). One refused address refuses the
 * whole host: a name that mixes public and private answers is how DNS rebinding attacks look.
 */
export function checkAddressPolicy(addresses: readonly string[], allowPrivateTargets: boolean): string[] {
  if (allowPrivateTargets) return [];
  return addresses.filter((a) => !isPublicAddress(a));
}
