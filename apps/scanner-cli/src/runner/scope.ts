import type { NetworkInterface } from "../host/host.js";
import type { ScanScope } from "../phases/phase.js";
import { ScopeError } from "./errors.js";
import { addressBits, formatIp, isLoopback, netmaskPrefix, type ParsedIp, parseIp, parseIpv4 } from "./ip.js";

/** Largest CIDR accepted in `--targets`: 4096 addresses (/20 for IPv4, /116 for IPv6). */
export const MAX_CIDR_ADDRESSES = 4096;
/** Largest scope in hosts, whatever mix of targets builds it. */
export const MAX_SCOPE_HOSTS = 4096;
/** `auto` never scans more than this host's /24, even on a wider subnet (a /16 would be 65,534 hosts). */
const AUTO_MIN_PREFIX = 24;
/** Host mode: this machine through loopback, nothing else (docs/scanner.md#network-scope). */
export const HOST_MODE_ADDRESSES = ["127.0.0.1"] as const;

export interface ScopeDeps {
  /** Addresses of a host name (the CLI passes the host's resolver). */
  resolve(hostname: string): Promise<string[]>;
  /** This machine's interfaces, read only for `auto`. */
  interfaces(): Promise<NetworkInterface[]>;
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/**
 * Turns `--targets` into a scan scope: absent → this host through loopback; `auto` → this host's IPv4 subnets
 * (each at most a /24); otherwise a list of addresses, CIDRs and host names. Bad input is a typed ScopeError.
 */
export async function buildScanScope(
  targets: string | readonly string[] | undefined,
  deps: ScopeDeps,
): Promise<ScanScope> {
  const items = (typeof targets === "string" ? [targets] : (targets ?? []))
    .flatMap((t) => t.split(/[\s,]+/))
    .filter(Boolean);
  if (items.length === 0) return { mode: "host", hosts: [...HOST_MODE_ADDRESSES], given: [] };
  if (items.some((t) => t.toLowerCase() === "auto")) {
    if (items.length > 1)
      throw new ScopeError("auto_not_alone", "`auto` cannot be combined with other targets", "auto");
    return autoScope(await deps.interfaces());
  }
  const hosts = new Set<string>();
  const named = new Set<string>();
  for (const item of items) {
    const isName = !item.includes("/") && parseIp(stripBrackets(item)) === null;
    for (const address of await expandTarget(item, deps)) {
      hosts.add(address);
      if (isName) named.add(address);
      if (hosts.size > MAX_SCOPE_HOSTS) {
        throw new ScopeError("scope_too_large", `the targets add up to more than ${MAX_SCOPE_HOSTS} hosts`, item);
      }
    }
  }
  return { mode: "targets", hosts: [...hosts], given: items, ...(named.size > 0 ? { named: [...named] } : {}) };
}

async function expandTarget(item: string, deps: ScopeDeps): Promise<string[]> {
  const slash = item.indexOf("/");
  if (slash >= 0) return expandCidr(item, item.slice(0, slash), item.slice(slash + 1));
  const ip = parseIp(stripBrackets(item));
  if (ip) return [formatIp(ip)];
  if (!HOSTNAME.test(item) || /^[\d.]+$/.test(item)) {
    throw new ScopeError("invalid_target", `${item} is not an IP address, CIDR or host name`, item);
  }
  const addresses = (await deps.resolve(item)).map((a) => parseIp(a)).filter((a): a is ParsedIp => a !== null);
  if (addresses.length === 0) throw new ScopeError("unresolvable_target", `${item} does not resolve`, item);
  return addresses.map(formatIp);
}

function expandCidr(item: string, base: string, prefixText: string): string[] {
  const ip = parseIp(stripBrackets(base));
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!ip || !(prefix >= 0 && prefix <= addressBits(ip.family))) {
    throw new ScopeError("invalid_target", `${item} is not a valid CIDR`, item);
  }
  const hostBits = addressBits(ip.family) - prefix;
  if (2n ** BigInt(hostBits) > BigInt(MAX_CIDR_ADDRESSES)) {
    throw new ScopeError("cidr_too_large", `${item} has more than ${MAX_CIDR_ADDRESSES} addresses`, item);
  }
  return networkHosts(ip, prefix).map(formatIp);
}

/** Usable hosts of a network: IPv4 /30 and wider drop the network and broadcast addresses. */
function networkHosts(ip: ParsedIp, prefix: number): ParsedIp[] {
  const hostBits = BigInt(addressBits(ip.family) - prefix);
  const size = 1n << hostBits;
  const network = (ip.value >> hostBits) << hostBits;
  const skipEnds = ip.family === 4 && prefix <= 30;
  const out: ParsedIp[] = [];
  for (let i = skipEnds ? 1n : 0n; i < (skipEnds ? size - 1n : size); i++) {
    out.push({ family: ip.family, value: network + i });
  }
  return out;
}

function autoScope(interfaces: readonly NetworkInterface[]): ScanScope {
  const given: string[] = [];
  const hosts = new Set<string>();
  for (const iface of interfaces) {
    if (iface.internal || !iface.ip4) continue;
    const address = parseIpv4(iface.ip4);
    const prefix = netmaskPrefix(iface.ip4subnet);
    if (address === null || prefix === null || prefix >= 31) continue;
    const ip: ParsedIp = { family: 4, value: address };
    // Loopback and link-local (169.254/16, no DHCP lease) are not a clinic network.
    if (isLoopback(ip) || address >> 16n === 0xa9fen) continue;
    const effective = Math.max(prefix, AUTO_MIN_PREFIX);
    const network = formatIp({ family: 4, value: (address >> BigInt(32 - effective)) << BigInt(32 - effective) });
    given.push(`${network}/${effective}`);
    for (const h of networkHosts(ip, effective)) hosts.add(formatIp(h));
  }
  if (hosts.size === 0)
    throw new ScopeError("no_local_subnet", "`auto` found no IPv4 subnet on this machine's interfaces");
  return { mode: "auto", hosts: [...hosts], given: [...new Set(given)] };
}

function stripBrackets(s: string): string {
  return s.startsWith("[") && s.endsWith("]") ? s.slice(1, -1) : s;
}
