import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import { type Neighbour, parseIpNeigh } from "./parse.js";

/** Neighbours from the kernel's ARP/NDP cache (iproute2). */
export async function linuxNeighbours(host: Host, signal: AbortSignal): Promise<Neighbour[] | string> {
  const r = await host.exec("ip", ["-j", "neigh", "show"], { signal });
  return unusableOutput(r) ?? (r.ok ? parseIpNeigh(r.stdout) : `ip neigh failed: ${r.stderr.trim().slice(0, 200)}`);
}
