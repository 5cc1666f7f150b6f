import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import type { FirewallReading } from "./firewall.js";
import { parseNetshProfiles } from "./parse.js";

/** Windows Defender Firewall state of the Domain, Private and Public profiles (reading needs no elevation). */
export async function windowsFirewall(host: Host, signal: AbortSignal): Promise<FirewallReading> {
  const r = await host.exec("netsh", ["advfirewall", "show", "allprofiles"], { signal });
  const problem = unusableOutput(r);
  const profiles = problem ? null : parseNetshProfiles(r.stdout);
  if (!profiles) {
    return {
      tool: "windows_firewall",
      state: "unknown",
      reason: problem ?? "netsh printed no profile state (output in a language other than English is not read)",
    };
  }
  const off = profiles.filter((p) => !p.enabled).map((p) => p.profile);
  const state = off.length === 0 ? "active" : off.length === profiles.length ? "inactive" : "partial";
  return { tool: "windows_firewall", state, profilesOff: off };
}
