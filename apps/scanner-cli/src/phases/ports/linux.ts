import type { Host } from "../../host/host.js";
import { type Reading, Unavailable, unparsed } from "../shared/unavailable.js";
import { type Listener, parseProcNetTcp } from "./listeners.js";
import type { SocketTable } from "./socket-table.js";

/** A busy server's table runs to megabytes (one line per socket); the cap keeps the read bounded. */
const MAX_TABLE_BYTES = 16 * 1024 * 1024;

/** Every listening TCP socket of every process from /proc/net/tcp and tcp6 (readable without root). */
export async function linuxSocketTable(host: Host): Promise<Reading<SocketTable>> {
  const [v4, v6] = await Promise.all([
    host.fs.readFile("/proc/net/tcp", MAX_TABLE_BYTES),
    host.fs.readFile("/proc/net/tcp6", MAX_TABLE_BYTES),
  ]);
  if (v4 === null) return new Unavailable("not_found", "/proc/net/tcp is not readable on this machine");
  const listeners4 = parseProcNetTcp(v4);
  if (listeners4 === null) return unparsed("/proc/net/tcp is not a kernel socket table");
  // tcp6 is absent when IPv6 is disabled: the IPv4 table is then the whole answer.
  const listeners6: Listener[] = v6 === null ? [] : (parseProcNetTcp(v6) ?? []);
  return { source: "proc_net_tcp", listeners: [...listeners4, ...listeners6] };
}
