import { randomUUID } from "node:crypto";
import {
  type FindingInput,
  type PhaseResult,
  SCAN_UPLOAD_LIMITS,
  type ScanResultDocument,
  type Severity,
} from "@hcs/protocol";

const SEVERITIES: readonly Severity[] = ["critical", "high", "medium", "low", "info"];

/** A risky-service finding as the scanner's ports phase words one (about `host`, or the scanning machine). */
function portFinding(host: string | null, n: number, pad: number): FindingInput {
  const where = host ?? "this machine";
  return {
    id: `ports.risky_service:${host ?? "local"}:${1000 + n}`,
    check_id: "ports.risky_service",
    source: "internal",
    category: "network_security",
    severity: SEVERITIES[n % SEVERITIES.length]!,
    title: `smb (TCP ${1000 + n}) is open on ${where}`,
    detail: `SMB file sharing is the usual path of ransomware between machines on a flat network.${" ".repeat(pad)}.`,
    evidence: { host: where, port: 1000 + n, service: "smb" },
    remediation:
      "Expose SMB only from file servers, block it between workstations with the host firewall, disable SMBv1 and require SMB signing and encryption.",
    controls: ["164.312(e)(1)"],
    ...(host ? { host } : {}),
  };
}

export interface FindingsAbout {
  /** The finding's host; null for findings about the scanning machine (no `host` field). */
  readonly host: string | null;
  readonly count: number;
}

/**
 * A completed scan whose ports phase reports `about` (how many findings about which host), as a real scanner
 * would; `pad` spaces lengthen each finding's detail, `facts` go to the ports phase.
 */
export function scanDocumentAbout(
  agentId: string,
  about: readonly FindingsAbout[],
  o: { hostname?: string; pad?: number; facts?: PhaseResult["facts"]; completedAt?: string } = {},
): ScanResultDocument {
  const findings = about.flatMap(({ host, count }) =>
    Array.from({ length: count }, (_, n) => portFinding(host, n, o.pad ?? 0)),
  );
  return {
    schema_version: 1,
    scan_id: randomUUID(),
    agent_id: agentId,
    scanner_version: "0.1.0",
    host: {
      hostname: o.hostname ?? "frontdesk-01",
      platform: "linux",
      os_name: "Debian GNU/Linux",
      os_version: "12",
      arch: "x64",
    },
    scope: { mode: "targets", targets: ["10.20.0.0/23"] },
    started_at: "2026-11-22T01:00:00.000Z",
    completed_at: o.completedAt ?? "2026-11-22T01:00:05.000Z",
    phases: [
      {
        id: "ports",
        status: "ok",
        duration_ms: 4100,
        facts: o.facts ?? { hosts_scanned: 512 },
        findings: findings as PhaseResult["findings"],
      },
      { id: "disk_encryption", status: "ok", duration_ms: 40, facts: { volumes: 1 }, findings: [] },
      { id: "mfa", status: "unsupported", duration_ms: 0, reason: "not on this platform", facts: {}, findings: [] },
    ],
  };
}

/** `count` addresses of a /23 (10.20.0.1 …), for findings about other hosts. */
export function networkHosts(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `10.20.${(i + 1) >> 8}.${(i + 1) & 255}`);
}

/**
 * The largest upload the limits accept: findings_per_upload findings about hosts_per_upload hosts, the scanning
 * machine with findings_per_host of them, each finding padded so the body is just under upload_bytes.
 */
export function maximumScanDocument(agentId: string, hostname = "frontdesk-01"): ScanResultDocument {
  const { findings_per_host, hosts_per_upload, findings_per_upload, upload_bytes } = SCAN_UPLOAD_LIMITS;
  const others = networkHosts(hosts_per_upload - 1);
  const rest = findings_per_upload - findings_per_host;
  const about: FindingsAbout[] = [
    { host: null, count: findings_per_host },
    ...others.map((host, i) => ({
      host,
      count: Math.floor(rest / others.length) + (i < rest % others.length ? 1 : 0),
    })),
  ];
  const unpadded = Buffer.byteLength(JSON.stringify(scanDocumentAbout(agentId, about, { hostname })));
  const pad = Math.floor((upload_bytes - unpadded - 512) / findings_per_upload);
  return scanDocumentAbout(agentId, about, { hostname, pad });
}
