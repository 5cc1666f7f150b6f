import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { parseDarwinNetstat } from "./listeners.js";
import type { SocketTable } from "./socket-table.js";

/**
 * Listening TCP sockets of every process from `netstat -anv -p tcp`, which needs no root (`lsof` without root lists
 * only the caller's own processes).
 */
export async function darwinSocketTable(host: Host, signal: AbortSignal): Promise<Reading<SocketTable>> {
  const r = await host.exec("netstat", ["-anv", "-p", "tcp"], { signal });
  const problem = commandUnavailable(r);
  if (problem) return problem;
  const listeners = parseDarwinNetstat(r.stdout);
  return listeners ? { source: "netstat", listeners } : unparsed("netstat printed no TCP socket table");
}
