import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { parseWindowsNetstat } from "./listeners.js";
import type { SocketTable } from "./socket-table.js";

/** Listening TCP sockets (IPv4 and IPv6) with their process ids from `netstat -ano` (no elevation needed). */
export async function windowsSocketTable(host: Host, signal: AbortSignal): Promise<Reading<SocketTable>> {
  const r = await host.exec("netstat", ["-ano"], { signal });
  const problem = commandUnavailable(r);
  if (problem) return problem;
  const listeners = parseWindowsNetstat(r.stdout);
  return listeners ? { source: "netstat", listeners } : unparsed("netstat printed no TCP socket table");
}
