import type { FindingInput } from "@hcs/protocol";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { phaseFinding } from "../shared/finding.js";
import { ok, skipped } from "../shared/outcome.js";
import { DEFAULT_SCAN_PORTS } from "./common-ports.js";
import { type OpenPortFact, openPortsFacts } from "./open-ports.js";
import { RISKY_SERVICES } from "./risky-services.js";
import { scanTcpPorts } from "./scanner.js";
import { serviceName } from "./service-names.js";

/** TCP connect scan of the hosts in scope; risky services become findings (DESIGN §3.6, phase 2). */
export const portsPhase = definePhase({
  id: "ports",
  platforms: ["linux", "darwin", "win32"],
  timeoutMs: 600_000,
  run: scanPorts,
});

async function scanPorts(ctx: PhaseContext): Promise<PhaseOutcome> {
  const hosts = ctx.scope.hosts;
  if (hosts.length === 0) return skipped("no hosts in scope");
  const ports = ctx.options.ports ?? DEFAULT_SCAN_PORTS;
  const budget = await ctx.host.net.socketBudget();
  const started = performance.now();
  const report = await scanTcpPorts({ net: ctx.host.net, hosts, ports, concurrency: budget, signal: ctx.signal });
  const open: OpenPortFact[] = report.open.map((o) => ({ host: o.host, port: o.port, service: serviceName(o.port) }));
  ctx.log(`ports: ${report.probes} probes, ${open.length} open, peak ${report.peakInFlight} sockets`);
  return ok(
    {
      ...openPortsFacts(open),
      hosts_scanned: hosts.length,
      ports_per_host: ports.length,
      hosts_answering: report.answeringHosts.length,
      closed: report.closed,
      filtered: report.filtered,
      probes: report.probes,
      retries: report.retries,
      peak_sockets: report.peakInFlight,
      scan_ms: Math.round(performance.now() - started),
      scope_mode: ctx.scope.mode,
    },
    open.flatMap((o) => riskyServiceFinding(o, ctx.scope.mode === "host")),
  );
}

function riskyServiceFinding(open: OpenPortFact, loopbackOnly: boolean): FindingInput[] {
  const risky = RISKY_SERVICES.get(open.port);
  if (!risky) return [];
  const where = loopbackOnly ? "on this machine (seen through loopback)" : `on ${open.host}`;
  return [
    phaseFinding("ports", {
      check: "risky_service",
      subject: `${open.host}:${open.port}`,
      host: open.host,
      severity: risky.severity,
      title: `${risky.service} (TCP ${open.port}) is open ${where}`,
      detail: risky.risk,
      remediation: risky.remediation,
      evidence: { host: open.host, port: open.port, service: risky.service },
    }),
  ];
}
