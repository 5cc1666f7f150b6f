import type { FindingInput, JsonObject } from "@hcs/protocol";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { darwinFirewall } from "../segmentation/darwin.js";
import type { FirewallReading } from "../segmentation/firewall.js";
import { linuxFirewall } from "../segmentation/linux.js";
import { windowsFirewall } from "../segmentation/win32.js";
import { phaseFinding } from "../shared/finding.js";
import { ok, skipped } from "../shared/outcome.js";
import { privilegeGapFinding } from "../shared/privilege-gap.js";
import { isUnavailable, type Reading } from "../shared/unavailable.js";
import { DEFAULT_SCAN_PORTS } from "./common-ports.js";
import { darwinSocketTable } from "./darwin.js";
import {
  parsePgHba,
  parseRedisConf,
  pgTrustFindings,
  redisAuthentication,
  redisFinding,
  trustBeyondLocal,
  unreadableConfigGap,
} from "./database-configs.js";
import { exposureEvidence, type FirewallExposure, firewallExposure } from "./firewall-exposure.js";
import { linuxSocketTable } from "./linux.js";
import { exposureOf, isWildcard, type ListeningPort, listeningPorts } from "./listeners.js";
import { mysqlPasswordlessFindings, passwordlessAccounts } from "./mysql-accounts.js";
import { type OpenPortFact, openPortsFacts } from "./open-ports.js";
import { RISKY_SERVICES } from "./risky-services.js";
import { scanTcpPorts } from "./scanner.js";
import { serviceName } from "./service-names.js";
import type { SocketTable } from "./socket-table.js";
import { windowsSocketTable } from "./win32.js";

/** Listening ports kept in the facts; a host with more is a server farm, not a clinic workstation. */
const MAX_LISTENING_PORTS = 1_000;

/**
 * TCP connect scan of the hosts in scope; risky services become findings (phase 2, docs/scanner.md). In host mode the
 * host's own socket table says what listens (every port) and on which address; a risky service is a finding only
 * when it is bound beyond loopback.
 */
export const portsPhase = definePhase({
  id: "ports",
  readers: { linux: linuxSocketTable, darwin: darwinSocketTable, win32: windowsSocketTable },
  // The socket table serves host mode only; without it the phase still scans (the fixed port list).
  readingIsPart: true,
  timeoutMs: 600_000,
  run: scanPorts,
});

async function scanPorts(ctx: PhaseContext, table: Reading<SocketTable>): Promise<PhaseOutcome> {
  const hosts = ctx.scope.hosts;
  if (hosts.length === 0) return skipped("no hosts in scope");
  const hostMode = ctx.scope.mode === "host";
  const listening = hostMode && !isUnavailable(table) ? listeningPorts(table.listeners) : null;
  // Host mode with the table: its ports (and any --ports) are probed through loopback, which confirms what this
  // machine answers there (the tls phase reads it); a port bound to a network address only is never probed.
  const ports = listening
    ? [...new Set([...listening.map((l) => l.port), ...(ctx.options.ports ?? [])])]
    : (ctx.options.ports ?? DEFAULT_SCAN_PORTS);
  const budget = await ctx.host.net.socketBudget();
  const started = performance.now();
  const report = await scanTcpPorts({ net: ctx.host.net, hosts, ports, concurrency: budget, signal: ctx.signal });
  // With targets, a loopback target is this machine: its socket table (when readable) says whether what answers
  // there is bound beyond loopback, the judgement host mode makes. Other targets are other machines.
  const ownPorts = !hostMode && !isUnavailable(table) ? listeningPorts(table.listeners) : null;
  const open: OpenPortFact[] = report.open.map((o) => {
    const own = ownPorts ? ownListener(ownPorts, o.host, o.port) : null;
    return { host: o.host, port: o.port, service: serviceName(o.port), ...(own ? { exposure: own.exposure } : {}) };
  });
  ctx.log(`ports: ${report.probes} probes, ${open.length} open, peak ${report.peakInFlight} sockets`);
  // Bound beyond loopback is half the answer; the host firewall is the other half (read only when it matters).
  const exposed = listening?.filter((l) => l.exposure === "network" && RISKY_SERVICES.has(l.port)) ?? [];
  const ownExposed = (ownPorts ?? []).filter((l) => l.exposure === "network" && RISKY_SERVICES.has(l.port));
  const firewall =
    exposed.length + ownExposed.length > 0 ? await FIREWALL_READERS[ctx.host.platform](ctx.host, ctx.signal) : null;
  const findings = listening
    ? exposed.flatMap((l) => exposedServiceFinding(l, firewall))
    : open.flatMap((o) => {
        const own = ownPorts ? ownListener(ownPorts, o.host, o.port) : null;
        return own ? exposedServiceFinding(own, firewall, o.host) : riskyServiceFinding(o, hostMode);
      });
  // Who may log in to this machine's databases is read whenever this machine is in scope: host mode, or a loopback
  // target among the targets.
  const thisMachine = hostMode || hosts.some((h) => exposureOf(h) === "loopback");
  const databases =
    thisMachine && !isUnavailable(table)
      ? databaseFacts(table, listening ?? ownPorts, firewall, ctx.host.isPrivileged)
      : null;
  if (databases) findings.push(...databases.findings);
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
      ...(listening && !isUnavailable(table)
        ? {
            listener_source: table.source,
            listening: listening.slice(0, MAX_LISTENING_PORTS).map((l) => ({
              port: l.port,
              service: serviceName(l.port),
              addresses: [...l.addresses],
              exposure: l.exposure,
            })),
            listening_ports: listening.length,
            listening_beyond_loopback: listening.filter((l) => l.exposure === "network").length,
          }
        : {}),
      ...(databases ? { database_configs: databases.facts } : {}),
    },
    findings,
    {
      ...(databases?.unreadable.length
        ? { database_configs: `not readable by this run: ${databases.unreadable.join(", ")}` }
        : {}),
      mysql_accounts: databases?.mysqlUnavailable,
      listener_exposure:
        hostMode && isUnavailable(table)
          ? `the socket table could not be read (${table.message}); ports were found by a connect scan of the fixed list through loopback, which cannot tell a loopback-only service from an exposed one`
          : null,
    },
  );
}

/** The port of this machine's socket table that answered a probe of a loopback target (null for other targets). */
function ownListener(ports: readonly ListeningPort[], host: string, port: number): ListeningPort | null {
  if (exposureOf(host) !== "loopback") return null;
  const l = ports.find((p) => p.port === port);
  if (!l) return null;
  return l.addresses.some((a) => a === host || isWildcard(a) || a === "::ffff:" + host) ? l : null;
}

/** Each platform's firewall reader (the segmentation phase's), for the firewall's part in exposure. */
const FIREWALL_READERS = { linux: linuxFirewall, darwin: darwinFirewall, win32: windowsFirewall } as const;

/**
 * A risky service this machine's socket table shows bound beyond loopback (host mode). Dropped by the host
 * firewall's default-drop policy with no rule accepting its port, it is not reachable from the segment: low (only
 * the firewall stands in front of it), and the title says so. The evidence says how sure that is.
 */
function exposedServiceFinding(
  l: ListeningPort,
  firewall: FirewallReading | null,
  probed = "127.0.0.1",
): FindingInput[] {
  const risky = RISKY_SERVICES.get(l.port);
  if (!risky || l.exposure !== "network") return [];
  const network = l.addresses.filter((a) => exposureOf(a) === "network");
  const where = network.some(isWildcard) ? "all network interfaces" : network.join(", ");
  const fw: FirewallExposure = firewallExposure(
    firewall,
    l.port,
    network.some((a) => a.includes(":")),
  );
  const shielded = fw.reachable === false;
  return [
    phaseFinding("ports", {
      check: "risky_service",
      subject: `${probed}:${l.port}`,
      host: probed,
      severity: shielded ? "low" : risky.severity,
      title: shielded
        ? `${risky.service} (TCP ${l.port}) listens on ${where} of this machine; the host firewall drops connections to it`
        : `${risky.service} (TCP ${l.port}) listens on ${where} of this machine${fw.reachable === "restricted" ? "; the host firewall admits some addresses" : ""}`,
      detail: shielded
        ? `${risky.risk} Other machines cannot reach it now (${fw.basis}); one firewall change would expose it, so bind it to 127.0.0.1 unless other machines need it.`
        : `${risky.risk} It is bound beyond loopback and ${fw.reachable === true ? "the segment can reach it" : fw.reachable === "restricted" ? "part of the segment can reach it" : "may be reachable from the segment"}: ${fw.basis}.`,
      remediation: risky.remediation,
      evidence: {
        port: l.port,
        service: risky.service,
        bind_addresses: [...l.addresses],
        exposure: "network",
        source: "socket_table",
        ...exposureEvidence(fw, firewall),
      },
    }),
  ];
}

/** A risky service a connect probe reached (targets, or host mode without a readable socket table). */
function riskyServiceFinding(open: OpenPortFact, loopbackOnly: boolean): FindingInput[] {
  const risky = RISKY_SERVICES.get(open.port);
  if (!risky) return [];
  const where = loopbackOnly
    ? "on this machine (seen through loopback; its bind address could not be read)"
    : `on ${open.host}`;
  return [
    phaseFinding("ports", {
      check: "risky_service",
      subject: `${open.host}:${open.port}`,
      host: open.host,
      severity: risky.severity,
      title: `${risky.service} (TCP ${open.port}) is open ${where}`,
      detail: risky.risk,
      remediation: risky.remediation,
      evidence: {
        host: open.host,
        port: open.port,
        service: risky.service,
        ...(loopbackOnly ? { exposure: "unknown", source: "connect_probe" } : {}),
      },
    }),
  ];
}

/**
 * Redis and PostgreSQL authentication from their configuration files (Linux host mode). A file this run may not read
 * is listed as not assessed and, without root, counts as the finding it may hide (privilege-gap.ts).
 */
function databaseFacts(
  table: SocketTable,
  listening: readonly ListeningPort[] | null,
  firewall: FirewallReading | null,
  privileged: boolean,
) {
  const configs = table.databaseConfigs;
  if (!configs) return null;
  const findings: FindingInput[] = [];
  const unreadable: string[] = [];
  const redis: JsonObject[] = [];
  for (const f of configs.redis) {
    if (f.text === null) {
      unreadable.push(f.path);
      if (!privileged) findings.push(privilegeGapFinding("ports", unreadableConfigGap("redis", f.path, listening)));
      continue;
    }
    const conf = parseRedisConf(f.text);
    redis.push({ config: f.path, port: conf.port, bind: [...conf.bind], authentication: redisAuthentication(conf) });
    const finding = redisFinding(f.path, conf, listening);
    if (finding) findings.push(finding);
  }
  const postgresql: JsonObject[] = [];
  for (const f of configs.pgHba) {
    if (f.text === null) {
      unreadable.push(f.path);
      if (!privileged)
        findings.push(privilegeGapFinding("ports", unreadableConfigGap("postgresql", f.path, listening)));
      continue;
    }
    const entries = parsePgHba(f.text);
    postgresql.push({
      config: f.path,
      entries: entries.length,
      trust_local: entries.filter((e) => e.method === "trust").length - trustBeyondLocal(entries).length,
      trust_beyond_local: trustBeyondLocal(entries).length,
    });
    findings.push(...pgTrustFindings(f.path, entries));
  }
  const mysql = table.mysqlAccounts ?? null;
  let mysqlFacts: JsonObject | null = null;
  if (mysql && "accounts" in mysql) {
    const server = listening?.find((l) => l.port === 3306);
    const dropped =
      server?.exposure === "network" &&
      firewallExposure(
        firewall,
        3306,
        server.addresses.some((a) => a.includes(":")),
      ).reachable === false;
    findings.push(...mysqlPasswordlessFindings(mysql.accounts, server?.exposure ?? "unknown", !dropped));
    mysqlFacts = {
      read_via: mysql.via,
      accounts: mysql.accounts.length,
      without_password: passwordlessAccounts(mysql.accounts).map((a) => `${a.user}@${a.host}`),
    };
  }
  return {
    facts: { redis, postgresql, ...(mysqlFacts ? { mysql: mysqlFacts } : {}) },
    findings,
    unreadable,
    mysqlUnavailable: mysql && "unavailable" in mysql ? mysql.unavailable : null,
  };
}
