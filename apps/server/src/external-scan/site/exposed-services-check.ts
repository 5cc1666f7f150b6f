import type { FindingParsed, GradeCapId, Severity } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import type { TcpPortState } from "../io/types.js";

export interface RiskyService {
  readonly port: number;
  readonly service: string;
  readonly name: string;
  readonly severity: Severity;
  readonly remoteAccess: boolean;
  readonly grade_cap?: GradeCapId;
  readonly why: string;
}

const remote = (port: number, service: string, name: string, why: string): RiskyService => ({
  port,
  service,
  name,
  severity: "critical",
  remoteAccess: true,
  grade_cap: "remote_access_exposed",
  why,
});
const database = (port: number, service: string, name: string): RiskyService => ({
  port,
  service,
  name,
  severity: "high",
  remoteAccess: false,
  why: `${name} should never face the internet: database ports are scanned continuously and default or reused credentials expose every record.`,
});

/** Services that must not be reachable from the internet on a practice's web host (well-known ports). */
export const RISKY_SERVICES: readonly RiskyService[] = [
  remote(
    3389,
    "rdp",
    "Remote Desktop (RDP)",
    "Internet-facing RDP is the most common way ransomware gangs enter healthcare networks.",
  ),
  remote(
    445,
    "smb",
    "Windows file sharing (SMB)",
    "SMB exposed to the internet is how WannaCry and similar worms spread.",
  ),
  remote(23, "telnet", "Telnet", "Telnet sends logins and sessions unencrypted."),
  remote(5900, "vnc", "VNC remote control", "VNC servers are often reachable with weak or no passwords."),
  {
    port: 21,
    service: "ftp",
    name: "FTP",
    severity: "high",
    remoteAccess: false,
    why: "FTP sends credentials and files unencrypted.",
  },
  database(1433, "mssql", "Microsoft SQL Server"),
  database(3306, "mysql", "MySQL / MariaDB"),
  database(5432, "postgresql", "PostgreSQL"),
  database(1521, "oracle", "Oracle Database"),
  database(27017, "mongodb", "MongoDB"),
  database(6379, "redis", "Redis"),
];

export interface PortProbe {
  readonly address: string;
  readonly port: number;
  readonly state: TcpPortState;
}

/** One finding per risky service found open on the site's host (pure). */
export function evaluateExposedServices(siteHost: string, probes: readonly PortProbe[]): FindingParsed[] {
  const findings: FindingParsed[] = [];
  for (const service of RISKY_SERVICES) {
    const open = probes.filter((p) => p.port === service.port && p.state === "open");
    if (open.length === 0) continue;
    findings.push(
      externalFinding({
        category: "application_security",
        controls: service.remoteAccess ? CONTROLS.remoteAccess : CONTROLS.exposedServices,
        subject: `${siteHost}:${service.port}`,
        host: siteHost,
        check_id: `app.exposed_services.${service.service}`,
        severity: service.severity,
        title: `${service.name} port ${service.port} is reachable from the internet`,
        detail: `${open.map((p) => `${p.address}:${p.port}`).join(", ")} (the website's host) accepts TCP connections on the ${service.name} port. ${service.why}`,
        evidence: {
          host: siteHost,
          addresses: open.map((p) => p.address),
          port: service.port,
          service: service.service,
        },
        remediation: service.remoteAccess
          ? `Close port ${service.port} to the internet; reach internal machines through a VPN with multi-factor authentication instead.`
          : `Close port ${service.port} to the internet (firewall or security group); allow it only from the hosts that need it.`,
        ...(service.grade_cap ? { grade_cap: service.grade_cap } : {}),
      }),
    );
  }
  return findings;
}

/** How many of the host's addresses are probed (a dual-stack host: one IPv4 and one IPv6 is typical). */
const MAX_ADDRESSES = 2;

export const exposedServicesCheck: ExternalCheck = {
  id: "app.exposed_services",
  category: "application_security",
  title: "Risky services on the website's host",
  subject: "site",
  timeoutMs: 15_000,
  async run(ctx, signal): Promise<CheckOutcome> {
    const host = await ctx.site.host();
    if (!host.ok) return { status: host.status, detail: host.detail };
    const addresses = host.addresses.slice(0, MAX_ADDRESSES);
    const probes = await Promise.all(
      addresses.flatMap((address) =>
        RISKY_SERVICES.map(async ({ port }): Promise<PortProbe> => {
          const result = await ctx.io.tcp
            .connect({ address, port, signal })
            .catch((error: unknown) => ({ state: "error" as const, detail: String(error) }));
          return { address, port, state: result.state };
        }),
      ),
    );
    return {
      status: "ok",
      findings: evaluateExposedServices(ctx.target.siteHost, probes),
      facts: {
        addresses,
        open: probes.filter((p) => p.state === "open").map((p) => `${p.address}:${p.port}`),
        ports_probed: RISKY_SERVICES.map((s) => s.port),
      },
    };
  },
};
