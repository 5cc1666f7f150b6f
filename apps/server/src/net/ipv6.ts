import { isIP } from "node:net";

/**
 * The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 part converted), or null
 * for anything that is not an IPv6 address.
 */
export function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase();
  const dotted = /([0-9]+)\.([0-9]+)\.([0-9]+)\.([0-9]+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const middle = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => "0");
  return [...left, ...middle, ...right].map((g) => Number.parseInt(g || "0", 16));
}

/** The dotted IPv4 address held in two 16-bit groups. */
export function ipv4FromGroups(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}
