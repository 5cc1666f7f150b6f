import type { FindingInput, Platform } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";
import type { RulesetJudgement } from "./rulesets.js";

/** The host firewall as the platform's own tool reports it. */
export interface FirewallReading {
  readonly tool: "ufw" | "nftables" | "iptables" | "macos_application_firewall" | "windows_firewall";
  /** `partial`: Windows filters on some network profiles only; `unknown`: see `reason`. */
  readonly state: "active" | "inactive" | "partial" | "unknown";
  /** Windows profiles that do not filter (Domain, Private, Public). */
  readonly profilesOff?: readonly string[];
  readonly reason?: string;
  /** Linux: the kernel's rule set as judged (nftables or iptables), when it could be read. */
  readonly ruleset?: RulesetJudgement;
}

const REMEDIATION: Record<Platform, string> = {
  linux:
    "Enable the host firewall with a default-deny inbound policy (ufw enable; ufw default deny incoming — or, with nftables, policy drop in the input chain with rules for the services this machine must offer).",
  darwin:
    "Turn the firewall on (System Settings → Network → Firewall, or socketfilterfw --setglobalstate on) and enable stealth mode; manage it by configuration profile where possible.",
  win32:
    "Turn Windows Defender Firewall on for every profile with inbound connections blocked by default (netsh advfirewall set allprofiles state on, or by Group Policy/Intune).",
};

/**
 * The finding for a firewall that is off everywhere or on some profiles only; none otherwise. `exposed` names the
 * sensitive services this machine's socket table shows bound beyond loopback: with the firewall off, nothing stands
 * between them and the segment.
 */
export function hostFirewallFinding(
  reading: FirewallReading,
  platform: Platform,
  exposed: readonly { port: number; service: string }[] = [],
): FindingInput | null {
  if (reading.state !== "inactive" && reading.state !== "partial") return null;
  const off = reading.profilesOff ?? [];
  const partial = reading.state === "partial";
  return phaseFinding("segmentation", {
    check: "host_firewall_off",
    severity: "medium",
    title: partial ? `The host firewall is off for the ${off.join(", ")} profile(s)` : "The host firewall is off",
    detail: partial
      ? "Whenever this machine is on a network of those types, every listening service on it is reachable from the whole segment."
      : "Every listening service on this machine is reachable from the whole segment.",
    remediation: REMEDIATION[platform],
    evidence: {
      firewall: reading.tool,
      state: reading.state,
      ...(reading.ruleset
        ? { default_input: reading.ruleset.defaultInput, input_rules: reading.ruleset.inputRules }
        : {}),
      ...(off.length ? { profiles_off: [...off] } : {}),
      ...(exposed.length ? { sensitive_services_exposed: exposed.map((e) => `${e.service} (TCP ${e.port})`) } : {}),
    },
  });
}

/** Services the firewall should never open to every address of a clinic network. */
export interface SensitiveService {
  readonly port: number;
  readonly service: string;
}

/**
 * Linux rule-set findings beyond on/off: a default that accepts new connections while some rules refuse traffic
 * (a deny-list, low), and rules that accept a sensitive service from any address (medium each).
 */
export function rulesetFindings(
  reading: FirewallReading,
  sensitive: readonly SensitiveService[],
  accepted: (port: number) => boolean,
): FindingInput[] {
  const r = reading.ruleset;
  if (!r || reading.state !== "active") return [];
  const out: FindingInput[] = [];
  if (r.defaultInput === "accept") {
    out.push(
      phaseFinding("segmentation", {
        check: "firewall_default_accept",
        severity: "low",
        title: "The host firewall accepts new incoming connections by default",
        detail: `The ${r.tool} input rules refuse only what they name (${r.refusingRules} refusing rule(s)); any service started later is reachable from the segment.`,
        remediation:
          "Make the input default drop (nftables: policy drop; iptables: -P INPUT DROP) and accept only the services this machine must offer.",
        evidence: { firewall: r.tool, default_input: r.defaultInput, refusing_rules: r.refusingRules },
      }),
    );
    return out;
  }
  for (const s of sensitive) {
    if (!accepted(s.port)) continue;
    out.push(
      phaseFinding("segmentation", {
        check: "firewall_open_to_any",
        subject: String(s.port),
        severity: "medium",
        title: `The host firewall accepts ${s.service} (TCP ${s.port}) from any address`,
        detail:
          "A rule lets every machine that can reach this one connect to a service that holds or controls ePHI; the segment boundary should name the systems that need it.",
        remediation: `Restrict the rule for TCP ${s.port} to the source addresses that need it (nftables: ip saddr <net> tcp dport ${s.port} accept; iptables: -s <net>).`,
        evidence: { firewall: r.tool, port: s.port, service: s.service, default_input: r.defaultInput },
      }),
    );
  }
  return out;
}
