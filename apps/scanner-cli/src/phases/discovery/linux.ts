import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { type Neighbour, parseIpNeigh } from "./parse.js";

/** Neighbours from the kernel's ARP/NDP cache (iproute2). */
export async function linuxNeighbours(host: Host, signal: AbortSignal): Promise<Reading<Neighbour[]>> {
  const r = await host.exec("ip", ["-j", "neigh", "show"], { signal });
  return (
    commandUnavailable(r) ??
    (r.ok ? parseIpNeigh(r.stdout) : unparsed(`ip neigh failed: ${r.stderr.trim().slice(0, 200)}`))
  );
}
