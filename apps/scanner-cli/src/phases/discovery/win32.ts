import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { type Neighbour, parseWindowsArp } from "./parse.js";

/** Neighbours from the ARP cache; Windows' `arp -a` prints addresses only, so no name lookups go out. */
export async function windowsNeighbours(host: Host, signal: AbortSignal): Promise<Reading<Neighbour[]>> {
  const r = await host.exec("arp", ["-a"], { signal });
  return (
    commandUnavailable(r) ??
    (r.ok ? parseWindowsArp(r.stdout) : unparsed(`arp failed: ${r.stderr.trim().slice(0, 200)}`))
  );
}
