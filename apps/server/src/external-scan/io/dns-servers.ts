import { isIP } from "node:net";
import { ExternalScanError } from "../errors.js";
import type { DnsServerAddress } from "./dns.js";

/**
 * Parses a resolver list such as HCS_DNS_SERVERS: `host[:port],…` with IPv6 in brackets (`[::1]:5353`);
 * the port defaults to 53. An empty string means "the system's" (an empty list).
 */
export function parseDnsServerList(value: string): DnsServerAddress[] {
  const servers: DnsServerAddress[] = [];
  for (const raw of value.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const match = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry) ?? /^([^:]+)(?::(\d+))?$/.exec(entry);
    // A bare IPv6 address has colons of its own and no port.
    const host = match ? match[1]! : isIP(entry) === 6 ? entry : "";
    const port = match?.[2] === undefined ? 53 : Number(match[2]);
    if (isIP(host) === 0 || !Number.isInteger(port) || port < 1 || port > 65_535) {
      throw new ExternalScanError("invalid_dns_server", `not a DNS server address (ip[:port]): ${entry}`);
    }
    servers.push({ host, port });
  }
  return servers;
}
