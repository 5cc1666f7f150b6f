import type { FindingInput } from "@hcs/protocol";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { listeningOf, openPortsOf } from "../ports/open-ports.js";
import { serviceName } from "../ports/service-names.js";
import { phaseFinding } from "../shared/finding.js";
import { ok, skipped } from "../shared/outcome.js";
import { darwinFirewall } from "./darwin.js";
import { type FirewallReading, hostFirewallFinding, rulesetFindings } from "./firewall.js";
import { linuxFirewall } from "./linux.js";
import { portAccepted } from "./rulesets.js";
import { windowsFirewall } from "./win32.js";

/** Services that belong behind a segment boundary (servers holding or moving ePHI, remote administration). */
const SENSITIVE_PORTS = new Set([104, 11112, 2575, 1433, 1521, 3306, 5432, 27017, 6379, 445, 139, 3389, 5900]);

/** Host firewall state, and which sensitive services this segment reaches (phase 7, docs/scanner.md). */
export const segmentationPhase = definePhase({
  id: "segmentation",
  readers: { linux: linuxFirewall, darwin: darwinFirewall, win32: windowsFirewall },
  dependsOn: ["ports"],
  run: checkSegmentation,
});

async function checkSegmentation(ctx: PhaseContext, firewall: FirewallReading): Promise<PhaseOutcome> {
  const findings: FindingInput[] = [];
  // This machine's sensitive services bound beyond loopback (socket table, host mode): what the firewall guards.
  const exposedHere = (listeningOf(ctx.earlier.get("ports")) ?? []).filter(
    (l) => l.exposure === "network" && SENSITIVE_PORTS.has(l.port),
  );
  const firewallFinding = hostFirewallFinding(firewall, ctx.host.platform, exposedHere);
  if (firewallFinding) findings.push(firewallFinding);
  const accepted = firewall.ruleset?.acceptedFromAnywhere ?? [];
  findings.push(
    ...rulesetFindings(
      firewall,
      [...SENSITIVE_PORTS].sort((a, b) => a - b).map((port) => ({ port, service: serviceName(port) })),
      (port) => portAccepted(accepted, port),
    ),
  );
  const open = openPortsOf(ctx.earlier.get("ports")) ?? [];
  // Loopback answers only prove what this machine runs; reachability across the segment needs real targets. With
  // neither the firewall's state nor targets, nothing was assessed: that must not read as a clean segment.
  if (ctx.scope.mode === "host" && firewall.state === "unknown") {
    return skipped(
      `the host firewall's state could not be read (${firewall.reason ?? "unknown"}) and no --targets were given to test reachability`,
      { firewall: firewall.state, firewall_tool: firewall.tool },
    );
  }
  // A loopback target whose socket is bound to loopback only (the ports phase read this machine's table) is
  // reachable from this machine alone, never from the segment.
  const reachable =
    ctx.scope.mode === "host" ? [] : open.filter((o) => SENSITIVE_PORTS.has(o.port) && o.exposure !== "loopback");
  for (const o of reachable) {
    findings.push(
      phaseFinding("segmentation", {
        check: "sensitive_service_reachable",
        subject: `${o.host}:${o.port}`,
        host: o.host,
        severity: "medium",
        title: `${o.service} on ${o.host}:${o.port} is reachable from this segment`,
        detail:
          "Servers that hold or move ePHI should sit in their own segment, reachable only from the systems that need them.",
        remediation:
          "Put ePHI servers and imaging devices in a separate VLAN and allow only the required flows at the boundary.",
        evidence: { host: o.host, port: o.port, service: o.service },
      }),
    );
  }
  return ok(
    {
      firewall: firewall.state,
      firewall_tool: firewall.tool,
      ...(firewall.profilesOff?.length ? { firewall_profiles_off: [...firewall.profilesOff] } : {}),
      ...(firewall.reason ? { firewall_unknown_reason: firewall.reason } : {}),
      ...(firewall.ruleset
        ? {
            firewall_ruleset: {
              default_input: firewall.ruleset.defaultInput,
              input_rules: firewall.ruleset.inputRules,
              refusing_rules: firewall.ruleset.refusingRules,
              jumps_not_followed: firewall.ruleset.jumpsNotFollowed,
              accepted_from_anywhere: firewall.ruleset.acceptedFromAnywhere.map((p) =>
                typeof p === "number" ? p : `${p.from}-${p.to}`,
              ),
            },
          }
        : {}),
      sensitive_services_reachable: reachable.length,
      sensitive_listeners_beyond_loopback: exposedHere.map((l) => l.port),
      hosts_with_sensitive_services: [...new Set(reachable.map((o) => o.host))].length,
    },
    findings,
    {
      host_firewall:
        firewall.state === "unknown" ? `its state could not be read (${firewall.reason ?? "no reason given"})` : null,
      sensitive_service_reachability:
        ctx.scope.mode === "host" ? "needs --targets (loopback shows only what this machine runs)" : null,
    },
  );
}
