import { z } from "zod";

/** A neighbour (ARP / NDP cache entry): a machine this host has talked to on its segment. */
export interface Neighbour {
  readonly address: string;
  readonly mac: string | null;
  readonly iface: string;
  readonly state: string;
}

const IpNeighSchema = z.array(
  z.object({
    dst: z.string(),
    dev: z.string().default(""),
    lladdr: z.string().optional(),
    state: z.array(z.string()).default([]),
  }),
);

/** `ip -j neigh show` (iproute2). FAILED / INCOMPLETE entries never answered and are not neighbours. */
export function parseIpNeigh(json: string): Neighbour[] {
  const parsed = IpNeighSchema.safeParse(safeJson(json));
  if (!parsed.success) return [];
  return parsed.data
    .filter((n) => n.lladdr && !n.state.some((s) => s === "FAILED" || s === "INCOMPLETE"))
    .map((n) => ({ address: n.dst, mac: n.lladdr ?? null, iface: n.dev, state: n.state.join(",").toLowerCase() }));
}

const ARP_LINE = /^\S+ \(([\d.]+)\) at ([0-9a-f:]+|\(incomplete\)) on (\S+)(.*)$/i;

/** macOS / BSD `arp -an` (or `arp -a`): `host (ip) at mac on en0 ifscope [ethernet]`. Multicast is skipped. */
export function parseBsdArp(text: string): Neighbour[] {
  const out: Neighbour[] = [];
  for (const line of text.split("\n")) {
    const m = ARP_LINE.exec(line.trim());
    if (!m || m[2] === "(incomplete)") continue;
    const address = m[1]!;
    if (isMulticastV4(address)) continue;
    out.push({
      address,
      mac: m[2]!.toLowerCase(),
      iface: m[3]!,
      state: m[4]!.includes("permanent") ? "permanent" : "reachable",
    });
  }
  return out;
}

/** Windows `arp -a` entry: address, MAC with dashes, then the type (`dynamic`/`static`, translated on other locales). */
const WINDOWS_ARP_ENTRY = /^\s+(\d{1,3}(?:\.\d{1,3}){3})\s+([0-9a-f]{2}(?:-[0-9a-f]{2}){5})\s+(\S+)\s*$/i;
/** `Interface: 172.16.5.25 --- 0x8`; the word before the colon is translated, the rest is not. */
const WINDOWS_ARP_INTERFACE = /^\S[^:]*:\s+(\d{1,3}(?:\.\d{1,3}){3})\s+---\s+0x[0-9a-f]+/i;

/**
 * Windows `arp -a`: one block per interface (named by its address), entries below it. Multicast and broadcast
 * entries are static by construction and name no machine, so they are skipped. Only the line shapes are read,
 * never the translated headers.
 */
export function parseWindowsArp(text: string): Neighbour[] {
  const out: Neighbour[] = [];
  let iface = "";
  for (const line of text.split(/\r?\n/)) {
    const head = WINDOWS_ARP_INTERFACE.exec(line);
    if (head) {
      iface = head[1]!;
      continue;
    }
    const m = WINDOWS_ARP_ENTRY.exec(line);
    if (!m) continue;
    const address = m[1]!;
    const mac = m[2]!.toLowerCase().replaceAll("-", ":");
    if (isMulticastV4(address) || address.endsWith(".255") || mac === "ff:ff:ff:ff:ff:ff") continue;
    out.push({ address, mac, iface, state: /^dyn/i.test(m[3]!) ? "reachable" : "permanent" });
  }
  return out;
}

function isMulticastV4(address: string): boolean {
  const first = Number(address.split(".")[0]);
  return first >= 224 && first <= 239;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
