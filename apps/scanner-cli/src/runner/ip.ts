/** Pure IPv4/IPv6 address arithmetic for scope building (no sockets, no DNS). */

export type IpFamily = 4 | 6;
export interface ParsedIp {
  readonly family: IpFamily;
  readonly value: bigint;
}

const IPV4_OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

export function parseIpv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => IPV4_OCTET.test(p))) return null;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n);
}

export function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join(".");
}

export function parseIpv6(text: string): bigint | null {
  let s = text.toLowerCase();
  if (s.includes("%")) return null; // zone ids name a local interface, not a scan target
  let tailV4: bigint | null = null;
  const lastColon = s.lastIndexOf(":");
  if (s.slice(lastColon + 1).includes(".")) {
    tailV4 = parseIpv4(s.slice(lastColon + 1));
    if (tailV4 === null) return null;
    s = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  let value = groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
  if (tailV4 !== null) value = (value & ~0xffffffffn) | tailV4;
  return value;
}

/** RFC 5952 text: lower case, leading zeros dropped, the longest run of two or more zero groups as `::`. */
export function formatIpv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt((7 - i) * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

export function parseIp(text: string): ParsedIp | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return { family: 4, value: v4 };
  const v6 = parseIpv6(text);
  return v6 === null ? null : { family: 6, value: v6 };
}

export function formatIp(ip: ParsedIp): string {
  return ip.family === 4 ? formatIpv4(ip.value) : formatIpv6(ip.value);
}

export function addressBits(family: IpFamily): number {
  return family === 4 ? 32 : 128;
}

/** Prefix length of a dotted IPv4 netmask (255.255.255.0 → 24), or null when the mask is not contiguous. */
export function netmaskPrefix(mask: string): number | null {
  const value = parseIpv4(mask);
  if (value === null) return null;
  const bits = value.toString(2).padStart(32, "0");
  return /^1*0*$/.test(bits) ? (bits.indexOf("0") === -1 ? 32 : bits.indexOf("0")) : null;
}

/** True for 127.0.0.0/8 and ::1: the only addresses tests and host-mode scans ever touch. */
export function isLoopback(ip: ParsedIp): boolean {
  return ip.family === 4 ? ip.value >> 24n === 127n : ip.value === 1n;
}
