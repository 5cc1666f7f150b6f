/** An IP address as SPF compares it: its family and its bytes (4 or 16). */
export interface SpfIp {
  readonly family: 4 | 6;
  readonly bytes: readonly number[];
}

// RFC 7208 §5.6 ip4-network: four qnum, each 0-255 without leading zeros.
const QNUM = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)";
const IPV4 = new RegExp(`^${QNUM}(?:\\.${QNUM}){3}$`);

/** Parses a dotted quad exactly as RFC 7208's ip4-network allows (no leading zeros, no short forms). */
export function parseIpv4(text: string): SpfIp | null {
  return IPV4.test(text) ? { family: 4, bytes: text.split(".").map(Number) } : null;
}

/** Parses an IPv6 address in RFC 4291 §2.2 text form (compressed, with or without an embedded dotted quad). */
export function parseIpv6(text: string): SpfIp | null {
  if (!/^[0-9a-f:.]+$/i.test(text)) return null;
  let head = text;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.includes(".")) {
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (!v4) return null;
    head = text.slice(0, lastColon + 1);
    // "::1.2.3.4" leaves "::", "ffff:1.2.3.4"-style forms leave a trailing ":" to drop.
    if (!head.endsWith("::")) head = head.slice(0, -1);
    tail = [...v4.bytes];
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  const wanted = 8 - tail.length / 2;
  const present = left.length + right.length;
  if (halves.length === 1 ? present !== wanted : present >= wanted) return null;
  const all = [...left, ...Array(wanted - present).fill("0"), ...right];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const bytes = all.flatMap((g) => {
    const n = Number.parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
  return { family: 6, bytes: [...bytes, ...tail] };
}

/**
 * The client address as check_host() compares it: an IPv4-mapped IPv6 address is IPv4 (RFC 7208 §5: such
 * connections match ip4 mechanisms and A records only).
 */
export function parseClientIp(text: string): SpfIp | null {
  const ip = parseIpv4(text) ?? parseIpv6(text);
  if (
    ip?.family === 6 &&
    ip.bytes.slice(0, 10).every((b) => b === 0) &&
    ip.bytes[10] === 0xff &&
    ip.bytes[11] === 0xff
  ) {
    return { family: 4, bytes: ip.bytes.slice(12) };
  }
  return ip;
}

/** True when `ip` lies in `network`/`prefix` (both of the same family). */
export function inNetwork(ip: SpfIp, network: SpfIp, prefix: number): boolean {
  if (ip.family !== network.family) return false;
  for (let bit = 0; bit < prefix; bit++) {
    const mask = 0x80 >> (bit % 8);
    if ((ip.bytes[bit >> 3]! & mask) !== (network.bytes[bit >> 3]! & mask)) return false;
  }
  return true;
}

function nibbles(ip: SpfIp): string[] {
  return ip.bytes.flatMap((b) => [(b >> 4).toString(16), (b & 0xf).toString(16)]);
}

/** The name a PTR query for `ip` asks (RFC 1035 §3.5, RFC 3596 §2.5). */
export function reverseName(ip: SpfIp): string {
  return ip.family === 4
    ? `${[...ip.bytes].reverse().join(".")}.in-addr.arpa`
    : `${nibbles(ip).reverse().join(".")}.ip6.arpa`;
}

/** The %{i} macro: dotted quad, or dot-separated nibbles for IPv6 (RFC 7208 §7.3, upper case as in §7.4). */
export function macroIp(ip: SpfIp): string {
  return ip.family === 4 ? ip.bytes.join(".") : nibbles(ip).join(".").toUpperCase();
}

/** The %{c} macro: the address in its usual text form (RFC 5952 compression for IPv6). */
export function readableIp(ip: SpfIp): string {
  if (ip.family === 4) return ip.bytes.join(".");
  const groups = Array.from({ length: 8 }, (_, i) => ((ip.bytes[2 * i]! << 8) | ip.bytes[2 * i + 1]!).toString(16));
  // The longest run of two or more zero groups becomes "::" (the first one on a tie).
  let best = { start: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== "0") {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j;
  }
  if (best.start < 0) return groups.join(":");
  return `${groups.slice(0, best.start).join(":")}::${groups.slice(best.start + best.length).join(":")}`;
}
