import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { type Neighbour, parseBsdArp } from "./parse.js";

/** Neighbours from the ARP cache; -n skips reverse DNS, which would send traffic and slow the phase. */
export async function darwinNeighbours(host: Host, signal: AbortSignal): Promise<Reading<Neighbour[]>> {
  const r = await host.exec("arp", ["-an"], { signal });
  return (
    commandUnavailable(r) ?? (r.ok ? parseBsdArp(r.stdout) : unparsed(`arp failed: ${r.stderr.trim().slice(0, 200)}`))
  );
}
