/**
 * Listening TCP sockets as the host's own socket table shows them, and what their bind address says about who can
 * reach them. Pure parsers of each OS's table (fixtures in ports/fixtures, provenance in phases/FIXTURES.md).
 */
import { isIP } from "node:net";

/** One listening socket: the address it is bound to (`0.0.0.0`, `::` for every interface) and its port. */
export interface Listener {
  readonly address: string;
  readonly port: number;
  /** The owning process id where the table gives it (macOS `netstat -anv`, Windows `netstat -ano`). */
  readonly pid?: number;
}

/**
 * Who can reach a socket by its bind address alone:
 *   loopback  127.0.0.0/8 or ::1 — only this machine, whatever the firewall says
 *   network   every interface (0.0.0.0, ::) or an address of a network interface — other machines, unless the host
 *             firewall blocks them
 */
export type Exposure = "loopback" | "network";

const WILDCARDS = new Set(["0.0.0.0", "::", "*"]);

export function exposureOf(address: string): Exposure {
  const a = address.toLowerCase();
  if (a === "::1" || /^127\./.test(a) || /^::ffff:127\./.test(a)) return "loopback";
  return "network";
}

export function isWildcard(address: string): boolean {
  return WILDCARDS.has(address);
}

/** TCP state 0A is LISTEN in the kernel's table (include/net/tcp_states.h). */
const PROC_LISTEN = "0A";

/** `0100007F` (a little-endian 32-bit word, as /proc prints it) → `127.0.0.1`. */
function procIpv4(hex: string): string {
  const bytes = hex.match(/../g)!.map((b) => Number.parseInt(b, 16));
  return bytes.reverse().join(".");
}

/** 32 hex digits, four little-endian 32-bit words → an IPv6 address in its short form. */
function procIpv6(hex: string): string {
  const bytes: number[] = [];
  for (let w = 0; w < 4; w++) {
    const word = hex
      .slice(w * 8, w * 8 + 8)
      .match(/../g)!
      .map((b) => Number.parseInt(b, 16));
    bytes.push(...word.reverse());
  }
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  // v4-mapped (::ffff:a.b.c.d) reads best in dotted form.
  if (groups.slice(0, 6).join(":") === "0:0:0:0:0:ffff") return `::ffff:${bytes.slice(12).join(".")}`;
  // The WHATWG URL parser writes IPv6 hosts in RFC 5952's short form (`::1`, `fe80::1`).
  return new URL(`http://[${groups.join(":")}]/`).hostname.slice(1, -1);
}

/**
 * `/proc/net/tcp` or `/proc/net/tcp6`: every socket of every process (no privileges needed), LISTEN rows kept.
 * Null when the text is not such a table.
 */
export function parseProcNetTcp(text: string): Listener[] | null {
  const lines = text.split("\n");
  if (!/^\s*sl\s+local_address\s+(?:rem|remote)_address\s+st\b/.test(lines[0] ?? "")) return null;
  const out: Listener[] = [];
  for (const line of lines.slice(1)) {
    const m = /^\s*\d+:\s+([0-9A-F]{8}|[0-9A-F]{32}):([0-9A-F]{4})\s+\S+\s+([0-9A-F]{2})\s/.exec(line);
    if (!m || m[3] !== PROC_LISTEN) continue;
    const address = m[1]!.length === 8 ? procIpv4(m[1]!) : procIpv6(m[1]!);
    out.push({ address, port: Number.parseInt(m[2]!, 16) });
  }
  return out;
}

/**
 * macOS `netstat -anv -p tcp`: rows `tcp4|tcp6|tcp46 recv send local foreign LISTEN … pid …`; the local address
 * ends in `.port` (`127.0.0.1.631`, `::1.631`, `*.22`); netstat cuts long IPv6 addresses (`fe80::aede:48ff:.49159`),
 * which are link-local here and read as network-reachable. `tcp46 *.port` is one dual-stack socket. Null when no
 * row has netstat's shape.
 */
export function parseDarwinNetstat(text: string): Listener[] | null {
  const out: Listener[] = [];
  let rows = 0;
  for (const line of text.split(/\r?\n/)) {
    const m = /^(tcp4|tcp6|tcp46)\s+\d+\s+\d+\s+(\S+)\.(\d{1,5})\s+\S+\s+(\S+)(?:\s+\d+\s+\d+\s+(\d+))?/.exec(line);
    if (!m) continue;
    rows++;
    if (m[4] !== "LISTEN") continue;
    const raw = m[2]!;
    const address = raw === "*" ? (m[1] === "tcp4" ? "0.0.0.0" : "::") : raw;
    out.push({ address, port: Number(m[3]), ...(m[5] ? { pid: Number(m[5]) } : {}) });
  }
  return rows > 0 ? out : null;
}

/**
 * Windows `netstat -ano`: rows `TCP local foreign LISTENING pid` (IPv6 in brackets, `[::]:445`). The state names
 * are not translated (a French Windows prints LISTENING too), so rows are read by shape. UDP rows have no state and
 * are skipped. Null when no TCP row has that shape.
 */
export function parseWindowsNetstat(text: string): Listener[] | null {
  const out: Listener[] = [];
  let rows = 0;
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*TCP\s+(\[[0-9a-fA-F:.%]+\]|[\d.]+):(\d{1,5})\s+\S+\s+([A-Z_]+)(?:\s+(\d+))?\s*$/.exec(line);
    if (!m) continue;
    rows++;
    if (m[3] !== "LISTENING") continue;
    const address = m[1]!.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
    if (isIP(address) === 0) continue;
    out.push({ address, port: Number(m[2]), ...(m[4] ? { pid: Number(m[4]) } : {}) });
  }
  return rows > 0 ? out : null;
}

/** One port and every address it listens on, most exposed first. */
export interface ListeningPort {
  readonly port: number;
  readonly addresses: readonly string[];
  readonly exposure: Exposure;
}

/** Listeners folded per port: a port is network-exposed when any of its sockets is bound beyond loopback. */
export function listeningPorts(listeners: readonly Listener[]): ListeningPort[] {
  const byPort = new Map<number, Set<string>>();
  for (const l of listeners) {
    if (!Number.isInteger(l.port) || l.port < 1 || l.port > 65535) continue;
    const set = byPort.get(l.port) ?? new Set<string>();
    set.add(l.address);
    byPort.set(l.port, set);
  }
  return [...byPort]
    .sort(([a], [b]) => a - b)
    .map(([port, set]) => {
      const addresses = [...set].sort(
        (a, b) => Number(exposureOf(a) === "loopback") - Number(exposureOf(b) === "loopback"),
      );
      return {
        port,
        addresses,
        exposure: addresses.some((a) => exposureOf(a) === "network") ? "network" : "loopback",
      };
    });
}
