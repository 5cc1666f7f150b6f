/**
 * Whether the host firewall lets the segment reach a service bound beyond loopback, and how sure that is. A listener
 * on 0.0.0.0 behind a default-drop input policy with no accept rule for its port is not reachable from the network
 * segment; with the rule set read directly from the kernel that is certain, from a front end's summary or with
 * chains not followed it is not. Pure; the firewall reading is the segmentation phase's (segmentation/firewall.ts).
 */
import type { JsonObject } from "@hcs/protocol";
import type { FirewallReading } from "../segmentation/firewall.js";
import { portAccepted } from "../segmentation/rulesets.js";

export interface FirewallExposure {
  /** `restricted`: accepted from some addresses or interfaces only. */
  readonly reachable: true | false | "restricted" | "unknown";
  /** high: the kernel's rule set says so; medium: a front end's summary, or parts not read; low: not read at all. */
  readonly confidence: "high" | "medium" | "low";
  /** What decided it, in words for the finding's detail. */
  readonly basis: string;
}

/** The firewall's part in whether other machines reach `port` on this one; `ipv6` when it is bound to an IPv6 address. */
export function firewallExposure(firewall: FirewallReading | null, port: number, ipv6: boolean): FirewallExposure {
  if (!firewall || firewall.state === "unknown")
    return {
      reachable: "unknown",
      confidence: "low",
      basis: `the host firewall could not be read${firewall?.reason ? ` (${firewall.reason})` : ""}`,
    };
  if (firewall.state === "inactive")
    return {
      reachable: true,
      confidence: firewall.ruleset ? "high" : "medium",
      basis: `the host firewall (${firewall.tool}) filters nothing`,
    };
  if (firewall.state === "partial")
    return {
      reachable: "unknown",
      confidence: "medium",
      basis: `the host firewall is off on some network profiles (${(firewall.profilesOff ?? []).join(", ")}): it depends on the network this machine is on`,
    };
  const j = firewall.ruleset;
  if (!j)
    return {
      reachable: "unknown",
      confidence: "medium",
      basis: `the host firewall (${firewall.tool}) is on, but its rules for this port were not read`,
    };
  // iptables-save is IPv4 only: what ip6tables does with an IPv6 socket was not read.
  const partial = ipv6 && j.tool === "iptables";
  const sure = partial ? "medium" : "high";
  if (j.defaultInput === "accept")
    return {
      reachable: true,
      confidence: j.refusingRules > 0 || j.jumpsNotFollowed > 0 || partial ? "medium" : "high",
      basis: `the ${j.tool} input policy accepts what no rule refuses`,
    };
  if (portAccepted(j.acceptedFromAnywhere, port))
    return { reachable: true, confidence: sure, basis: `an ${j.tool} rule accepts TCP ${port} from any address` };
  if (j.acceptsAllPortsFromSome || portAccepted(j.acceptedFromSome, port))
    return {
      reachable: "restricted",
      confidence: sure,
      basis: `${j.tool} drops new connections by default and accepts TCP ${port} from some addresses or interfaces only`,
    };
  if (j.jumpsNotFollowed > 0)
    return {
      reachable: "unknown",
      confidence: "medium",
      basis: `${j.tool} drops new connections by default, but ${j.jumpsNotFollowed} jump(s) to other chains (ufw's, firewalld's) were not followed`,
    };
  return {
    reachable: false,
    confidence: sure,
    basis: `${j.tool} drops new connections by default and no rule accepts TCP ${port}`,
  };
}

/** The evidence fields an exposure finding carries. */
export function exposureEvidence(e: FirewallExposure, firewall: FirewallReading | null): JsonObject {
  return {
    reachable_from_segment: e.reachable,
    confidence: e.confidence,
    firewall: firewall
      ? {
          tool: firewall.tool,
          state: firewall.state,
          ...(firewall.ruleset ? { default_input: firewall.ruleset.defaultInput } : {}),
        }
      : null,
  };
}
