import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import type { FirewallReading } from "./firewall.js";
import { parseUfwStatus } from "./parse.js";

/** ufw's view (Debian, Ubuntu). Raw nftables/iptables rule sets are not judged: a rule list says little on its own. */
export async function linuxFirewall(host: Host, signal: AbortSignal): Promise<FirewallReading> {
  const r = await host.exec("ufw", ["status", "verbose"], { signal });
  const problem = unusableOutput(r);
  const state = problem ? null : parseUfwStatus(r.stdout);
  if (state) return { tool: "ufw", state };
  return { tool: "ufw", state: "unknown", reason: problem ?? "ufw printed an unexpected status" };
}
