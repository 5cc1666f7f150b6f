import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import type { FirewallReading } from "./firewall.js";
import { parseSocketfilterfwState } from "./parse.js";

/** socketfilterfw lives outside PATH; reading the state needs no root. */
const SOCKETFILTERFW = "/usr/libexec/ApplicationFirewall/socketfilterfw";

/**
 * The Application Firewall, which System Settings switches. pf is not read: it ships disabled, carries no rules on
 * a workstation unless an administrator wrote them, and `pfctl -s info` needs root.
 */
export async function darwinFirewall(host: Host, signal: AbortSignal): Promise<FirewallReading> {
  const r = await host.exec(SOCKETFILTERFW, ["--getglobalstate"], { signal });
  const problem = unusableOutput(r, "socketfilterfw");
  const state = problem ? null : parseSocketfilterfwState(r.stdout);
  if (state) return { tool: "macos_application_firewall", state: state === "on" ? "active" : "inactive" };
  return {
    tool: "macos_application_firewall",
    state: "unknown",
    reason: problem ?? "socketfilterfw printed an unexpected state",
  };
}
