import type { FindingInput, Platform } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";

/** The host firewall as the platform's own tool reports it. */
export interface FirewallReading {
  readonly tool: "ufw" | "macos_application_firewall" | "windows_firewall";
  /** `partial`: Windows filters on some network profiles only; `unknown`: see `reason`. */
  readonly state: "active" | "inactive" | "partial" | "unknown";
  /** Windows profiles that do not filter (Domain, Private, Public). */
  readonly profilesOff?: readonly string[];
  readonly reason?: string;
}

const REMEDIATION: Record<Platform, string> = {
  linux: "Enable the host firewall with a default-deny inbound policy (ufw enable; ufw default deny incoming).",
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
      ...(off.length ? { profiles_off: [...off] } : {}),
      ...(exposed.length ? { sensitive_services_exposed: exposed.map((e) => `${e.service} (TCP ${e.port})`) } : {}),
    },
  });
}
