import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import { type Neighbour, parseWindowsArp } from "./parse.js";

/** Neighbours from the ARP cache; Windows' `arp -a` prints addresses only, so no name lookups go out. */
export async function windowsNeighbours(host: Host, signal: AbortSignal): Promise<Neighbour[] | string> {
  const r = await host.exec("arp", ["-a"], { signal });
  return unusableOutput(r) ?? (r.ok ? parseWindowsArp(r.stdout) : `arp failed: ${r.stderr.trim().slice(0, 200)}`);
}
