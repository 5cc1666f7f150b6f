import { isIP } from "node:net";
import { ipv6Groups } from "./ipv6.js";

/**
 * The rate-limit bucket of an anonymous client: its IPv4 address, or the /64 network of an IPv6 address (one
 * subscriber usually holds a whole /64, so per-address buckets would give it 2^64 of them).
 */
export function anonymousBucketOf(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  return `${(ipv6Groups(ip) ?? [])
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
