import type { FindingInput } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { openPortsOf } from "../ports/open-ports.js";
import { unusableOutput } from "../shared/command.js";
import { phaseFinding } from "../shared/finding.js";
import { ok } from "../shared/outcome.js";
import { parseUfwStatus } from "./parse.js";

/** Services that belong behind a segment boundary (servers holding or moving ePHI, remote administration). */
const SENSITIVE_PORTS = new Set([104, 11112, 2575, 1433, 1521, 3306, 5432, 27017, 6379, 445, 139, 3389, 5900]);

/** Host firewall state, and which sensitive services this segment reaches (DESIGN §3.6, phase 7). */
export const segmentationPhase = definePhase({
  id: "segmentation",
  platforms: ["linux", "darwin", "win32"],
  dependsOn: ["ports"],
  run: checkSegmentation,
});

async function checkSegmentation(ctx: PhaseContext): Promise<PhaseOutcome> {
  const firewall = await firewallState(ctx.host, ctx.signal);
  const findings: FindingInput[] = [];
  if (firewall === "inactive") {
    findings.push(
      phaseFinding("segmentation", {
        check: "host_firewall_off",
        severity: "medium",
        title: "The host firewall is off",
        detail: "Every listening service on this machine is reachable from the whole segment.",
        remediation:
          "Enable the host firewall with a default-deny inbound policy (ufw enable; ufw default deny incoming).",
        evidence: { firewall: "ufw", state: firewall },
      }),
    );
  }
  const open = openPortsOf(ctx.earlier.get("ports")) ?? [];
  // Loopback answers only prove what this machine runs; reachability across the segment needs real targets.
  const reachable = ctx.scope.mode === "host" ? [] : open.filter((o) => SENSITIVE_PORTS.has(o.port));
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
      firewall:
        typeof firewall === "string" && (firewall === "active" || firewall === "inactive") ? firewall : "unknown",
      ...(firewall !== "active" && firewall !== "inactive" ? { firewall_unknown_reason: firewall } : {}),
      sensitive_services_reachable: reachable.length,
      hosts_with_sensitive_services: [...new Set(reachable.map((o) => o.host))].length,
    },
    findings,
  );
}

/** ufw's view on Linux; other firewalls (nftables rules, macOS ALF, Windows profiles) are not read yet. */
async function firewallState(host: Host, signal: AbortSignal): Promise<"active" | "inactive" | string> {
  if (host.platform !== "linux") return `the ${host.platform} firewall is not read yet`;
  const r = await host.exec("ufw", ["status", "verbose"], { signal });
  return unusableOutput(r) ?? parseUfwStatus(r.stdout) ?? "ufw printed an unexpected status";
}
