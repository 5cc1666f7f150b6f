import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import { type Neighbour, parseBsdArp } from "./parse.js";

/** Neighbours from the ARP cache; -n skips reverse DNS, which would send traffic and slow the phase. */
export async function darwinNeighbours(host: Host, signal: AbortSignal): Promise<Neighbour[] | string> {
  const r = await host.exec("arp", ["-an"], { signal });
  return unusableOutput(r) ?? (r.ok ? parseBsdArp(r.stdout) : `arp failed: ${r.stderr.trim().slice(0, 200)}`);
}
