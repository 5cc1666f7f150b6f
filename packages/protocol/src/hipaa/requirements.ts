import type { CategoryName } from "../categories.js";
import type { PhaseId } from "../phases.js";
import type { HipaaControlId } from "./controls.js";

/**
 * What produces the evidence for a requirement: a scanner phase, the external checks of a category, a record the
 * practice keeps in HCS, or HCS's own audit log of the practice's evidence (audit.md).
 */
export type RequirementEvidence =
  | { readonly kind: "phase"; readonly phase: PhaseId }
  | { readonly kind: "external_check"; readonly category: CategoryName }
  | { readonly kind: "administrative"; readonly record: AdministrativeRecord }
  | { readonly kind: "audit_log"; readonly log: "evidence_records" };

/**
 * Records kept by the practice in HCS (Group A) that evidence a requirement: the administrative records, and the
 * restore tests of the contingency plan.
 */
export type AdministrativeRecord = "risk_assessment" | "policies" | "training" | "baa" | "incidents" | "restore_tests";

export interface ComplianceRequirement {
  readonly id: string;
  readonly title: string;
  readonly controls: readonly HipaaControlId[];
  readonly evidence: readonly RequirementEvidence[];
}

const phase = (p: PhaseId): RequirementEvidence => ({ kind: "phase", phase: p });
const external = (category: CategoryName): RequirementEvidence => ({ kind: "external_check", category });
const admin = (record: AdministrativeRecord): RequirementEvidence => ({ kind: "administrative", record });
const auditLog: RequirementEvidence = { kind: "audit_log", log: "evidence_records" };

/**
 * The 13 requirements the scanner and the external scan verify together
 * (docs/api.md#compliance-state-the-13-requirements).
 */
export const COMPLIANCE_REQUIREMENTS = [
  {
    id: "encryption_at_rest",
    title: "Encryption at rest",
    controls: ["164.312(a)(2)(iv)", "164.310(d)(1)"],
    evidence: [phase("disk_encryption")],
  },
  {
    id: "multi_factor_authentication",
    title: "Multi-factor authentication",
    controls: ["164.312(d)", "164.308(a)(5)(ii)(D)"],
    evidence: [phase("mfa"), phase("access_control")],
  },
  {
    id: "network_segmentation",
    title: "Network segmentation",
    controls: ["164.312(e)(1)", "164.308(a)(4)(ii)(A)", "164.312(a)(1)"],
    evidence: [phase("segmentation"), phase("ports"), phase("discovery")],
  },
  {
    id: "asset_inventory",
    title: "Asset inventory and classification",
    controls: ["164.310(d)(1)", "164.310(d)(2)(iii)", "164.308(a)(1)(ii)(A)"],
    evidence: [phase("asset_inventory"), phase("discovery")],
  },
  {
    id: "patch_management",
    title: "Patch management and end-of-life detection",
    controls: ["164.308(a)(5)(ii)(B)", "164.308(a)(1)(ii)(B)"],
    evidence: [phase("patches"), phase("eol")],
  },
  {
    id: "backup_restore",
    title: "Backup and 72-hour restore readiness",
    controls: ["164.308(a)(7)(ii)(A)", "164.308(a)(7)(ii)(B)", "164.308(a)(7)(ii)(D)", "164.310(d)(2)(iv)"],
    // Backups recent on the ePHI-holding hosts; a restore of each ePHI-holding system tested (docs/scoring.md#9-requirements-6-and-13-restore-readiness-and-the-audit-trail).
    evidence: [phase("backups"), admin("restore_tests")],
  },
  {
    id: "ephi_data_flow",
    title: "ePHI data flow mapping",
    controls: ["164.308(a)(1)(ii)(A)", "164.312(e)(1)", "164.312(e)(2)(ii)"],
    evidence: [phase("ephi_flow"), phase("tls")],
  },
  {
    id: "external_vulnerability_scanning",
    title: "External vulnerability scanning",
    controls: ["164.308(a)(1)(ii)(A)", "164.308(a)(8)", "164.312(e)(1)"],
    evidence: [external("email_security"), external("application_security"), external("privacy_compliance")],
  },
  {
    id: "security_risk_assessment",
    title: "Security risk assessment",
    controls: ["164.308(a)(1)(ii)(A)", "164.308(a)(1)(ii)(B)"],
    evidence: [admin("risk_assessment")],
  },
  {
    id: "policy_documentation",
    title: "Policy documentation (24 policies)",
    controls: ["164.316(a)", "164.316(b)(1)", "164.316(b)(2)(iii)"],
    evidence: [admin("policies")],
  },
  {
    id: "staff_training",
    title: "Staff training verification",
    controls: ["164.308(a)(5)", "164.308(a)(5)(ii)(A)"],
    evidence: [admin("training")],
  },
  {
    id: "baa_management",
    title: "BAA management and tracking",
    controls: ["164.308(b)(1)", "164.308(b)(3)"],
    evidence: [admin("baa")],
  },
  {
    id: "audit_trail",
    title: "Audit trail with SHA-256 hashing and blockchain-anchored proof",
    controls: ["164.312(b)", "164.308(a)(1)(ii)(D)", "164.312(c)(1)"],
    // The audit controls of the ePHI-holding hosts, and the practice's evidence in HCS's hashed, signed log.
    evidence: [phase("access_control"), auditLog],
  },
] as const satisfies readonly ComplianceRequirement[];

export type ComplianceRequirementId = (typeof COMPLIANCE_REQUIREMENTS)[number]["id"];
