import type { Severity } from "@hcs/protocol";

export interface RiskyService {
  readonly service: string;
  readonly severity: Severity;
  /** Why it matters for ePHI, one sentence. */
  readonly risk: string;
  readonly remediation: string;
}

const DATABASE_REMEDIATION =
  "Bind the database to the application hosts only (listen address and host firewall), require TLS and " +
  "authentication for every client, and keep it off workstation segments.";
const database = (service: string): RiskyService => ({
  service,
  severity: "high",
  // Says why it matters, not where it is reachable from: the finding's title says that (a probe reached it, or the
  // socket table shows it bound beyond loopback).
  risk: `${service} is a database, where ePHI is stored in bulk; whoever reaches it can guess passwords and attack its own vulnerabilities.`,
  remediation: DATABASE_REMEDIATION,
});
const vnc: RiskyService = {
  service: "vnc",
  severity: "high",
  risk: "VNC gives full remote control of a desktop, often with a weak shared password and without encryption.",
  remediation: "Disable VNC or reach it only through an encrypted, MFA-protected remote access gateway (VPN).",
};
const dicom: RiskyService = {
  service: "dicom",
  severity: "high",
  risk: "A DICOM service (PACS, modality) is reachable; DICOM associations are usually unauthenticated and unencrypted.",
  remediation:
    "Restrict DICOM to known AE titles and source addresses, use DICOM TLS, and place imaging devices on their own segment.",
};

/** Services whose reachability on a clinic network is itself a finding (docs/scanner.md#network-scope). */
export const RISKY_SERVICES: ReadonlyMap<number, RiskyService> = new Map([
  [
    23,
    {
      service: "telnet",
      severity: "critical",
      risk: "Telnet sends logins and whole sessions in cleartext; anyone on the segment can read them.",
      remediation: "Disable telnet and use SSH with key-based authentication instead.",
    },
  ],
  [
    21,
    {
      service: "ftp",
      severity: "high",
      risk: "FTP sends credentials and files in cleartext.",
      remediation: "Replace FTP with SFTP or FTPS, and disable anonymous access.",
    },
  ],
  [
    445,
    {
      service: "smb",
      severity: "medium",
      risk: "SMB file sharing is the usual path of ransomware between machines on a flat network.",
      remediation:
        "Expose SMB only from file servers, block it between workstations with the host firewall, disable SMBv1 and require SMB signing and encryption.",
    },
  ],
  [
    139,
    {
      service: "netbios-ssn",
      severity: "medium",
      risk: "NetBIOS session service (SMB over NetBIOS) leaks names and shares and carries legacy SMB.",
      remediation: "Disable NetBIOS over TCP/IP and block port 139; use SMB over 445 on file servers only.",
    },
  ],
  [
    3389,
    {
      service: "rdp",
      severity: "high",
      risk: "Remote Desktop is the most attacked remote access service; password guessing leads to full control.",
      remediation:
        "Allow RDP only through a VPN or RD Gateway with MFA, enable Network Level Authentication and lock out repeated failures.",
    },
  ],
  [5900, vnc],
  [5800, { ...vnc, service: "vnc-http" }],
  [1433, database("Microsoft SQL Server")],
  [3306, database("MySQL")],
  [5432, database("PostgreSQL")],
  [1521, database("Oracle")],
  [27017, database("MongoDB")],
  [
    6379,
    {
      ...database("Redis"),
      risk: "Redis has no authentication by default: whoever reaches it can read and change what it holds.",
    },
  ],
  [104, dicom],
  [11112, dicom],
  [
    2575,
    {
      service: "hl7-mllp",
      severity: "high",
      risk: "An HL7 v2 interface (MLLP) is reachable; HL7 messages are ePHI and MLLP carries them in cleartext.",
      remediation:
        "Wrap MLLP in TLS (or a VPN tunnel between interface engines) and accept connections only from the partner systems.",
    },
  ],
]);
