import { z } from "zod";
import type { CategoryName } from "./categories.js";
import type { HipaaControlId } from "./hipaa/controls.js";

export interface PhaseDescriptor {
  readonly id: string;
  readonly order: number;
  readonly title: string;
  readonly checks: string;
  readonly controls: readonly HipaaControlId[];
  /** Score categories this phase provides data for when it runs to completion. */
  readonly categories: readonly CategoryName[];
  /** True when the phase sends traffic to other hosts (only to --targets; loopback when none are given). */
  readonly touchesNetwork: boolean;
}

/** The 12 internal scan phases (docs/scanner.md#what-each-phase-reads); the ids are part of the wire protocol. */
export const PHASES = [
  {
    id: "discovery",
    order: 1,
    title: "Discovery",
    checks: "host identity, interfaces, subnets, gateway, neighbours, live hosts in scope",
    controls: ["164.308(a)(1)(ii)(A)"],
    categories: ["asset_management"],
    touchesNetwork: true,
  },
  {
    id: "ports",
    order: 2,
    title: "Open ports and risky services",
    checks: "TCP connect scan of in-scope hosts; risky services (telnet, ftp, smb, rdp, vnc, db, dicom 104, hl7 2575)",
    controls: ["164.312(e)(1)"],
    categories: ["network_security"],
    touchesNetwork: true,
  },
  {
    id: "tls",
    order: 3,
    title: "TLS and cleartext protocols",
    checks: "TLS versions, ciphers, certificate validity and key size on discovered services; cleartext protocols",
    controls: ["164.312(e)(2)(ii)"],
    categories: ["encryption"],
    touchesNetwork: true,
  },
  {
    id: "disk_encryption",
    order: 4,
    title: "Disk encryption",
    checks: "BitLocker / FileVault / LUKS status of every fixed volume",
    controls: ["164.312(a)(2)(iv)"],
    categories: ["encryption"],
    touchesNetwork: false,
  },
  {
    id: "mfa",
    order: 5,
    title: "Multi-factor authentication",
    checks: "MFA evidence (Windows Hello/Entra, PAM modules, sshd AuthenticationMethods, macOS smart card)",
    controls: ["164.312(d)"],
    categories: ["access_control"],
    touchesNetwork: false,
  },
  {
    id: "access_control",
    order: 6,
    title: "Access control",
    checks: "local admins, guest account, password policy, screen lock / automatic logoff",
    controls: ["164.312(a)(2)(i)", "164.312(a)(2)(iii)"],
    categories: ["access_control"],
    touchesNetwork: false,
  },
  {
    id: "segmentation",
    order: 7,
    title: "Firewall and segmentation",
    checks: "firewall state, which sensitive services are reachable from this segment, flat-network signs",
    controls: ["164.312(e)(1)"],
    categories: ["network_security"],
    touchesNetwork: true,
  },
  {
    id: "asset_inventory",
    order: 8,
    title: "Asset inventory",
    checks: "hardware, OS, installed software; classify ePHI-bearing assets (EHR, PACS, DB)",
    controls: ["164.310(d)(1)"],
    categories: ["asset_management"],
    touchesNetwork: false,
  },
  {
    id: "patches",
    order: 9,
    title: "Patch management",
    checks: "pending updates, last update time, automatic updates",
    controls: ["164.308(a)(5)(ii)(B)"],
    categories: ["asset_management"],
    touchesNetwork: false,
  },
  {
    id: "eol",
    order: 10,
    title: "End-of-life software",
    checks: "end-of-life OS and software (bundled dated dataset)",
    controls: ["164.308(a)(1)(ii)(B)"],
    categories: ["asset_management"],
    touchesNetwork: false,
  },
  {
    id: "backups",
    order: 11,
    title: "Backups and restore readiness",
    checks: "backup agents, last successful backup age (≤ 48 h), restore test evidence (72-hour readiness)",
    controls: ["164.308(a)(7)(ii)(A)", "164.308(a)(7)(ii)(B)"],
    categories: ["contingency"],
    touchesNetwork: false,
  },
  {
    id: "ephi_flow",
    order: 12,
    title: "ePHI locations and flows",
    checks: "where ePHI sits (pattern scan of configured paths: counts only) and where it flows",
    controls: ["164.308(a)(1)(ii)(A)"],
    categories: ["asset_management", "encryption"],
    touchesNetwork: false,
  },
] as const satisfies readonly PhaseDescriptor[];

export type PhaseId = (typeof PHASES)[number]["id"];
export const PHASE_IDS = PHASES.map((p) => p.id) as PhaseId[];
export const PhaseIdSchema = z.enum(PHASE_IDS as [PhaseId, ...PhaseId[]]);

/** Descriptor of a phase by id. */
export function phaseDescriptor(id: PhaseId): PhaseDescriptor {
  const found = PHASES.find((p) => p.id === id);
  if (!found) throw new RangeError(`unknown phase ${id}`);
  return found;
}

export const PHASE_STATUSES = ["ok", "failed", "skipped", "unsupported"] as const;
export const PhaseStatusSchema = z.enum(PHASE_STATUSES);
export type PhaseStatus = z.infer<typeof PhaseStatusSchema>;
