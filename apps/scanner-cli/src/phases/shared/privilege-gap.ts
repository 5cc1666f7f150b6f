import type { CategoryName, FindingInput, HipaaControlId, PhaseId, Severity } from "@hcs/protocol";
import { phaseFinding } from "./finding.js";

/** The check id (after the phase's) of the finding that stands for a check this run lacked the privileges to make. */
export const PRIVILEGE_GAP_CHECK = "not_assessed";

export interface PrivilegeGap {
  /** The name the phase lists the check under in its facts' `not_assessed` (e.g. `database_configs`). */
  readonly check: string;
  /** What the gap is about when the check has several (a file), so each gets its own finding; default `check`. */
  readonly subject?: string;
  /** What the check would have judged, for the title ("who may log in to Redis (/etc/redis/redis.conf)"). */
  readonly what: string;
  /** Why it could not, naming the file or tool and the privilege (also the `not_assessed` reason). */
  readonly reason: string;
  /** The most severe finding the check raises in this situation: what the gap counts as. */
  readonly severity: Severity;
  readonly category: CategoryName;
  readonly controls?: readonly HipaaControlId[];
}

/**
 * A check this run could not make for lack of privileges, as a finding of the severity and category of the most
 * severe finding that check raises here (docs/scanner.md, "Checks that need privileges"). Listed as not assessed too,
 * it also counts in the grade, so a scan without root never grades better than one with root would; the next scan
 * that makes the check (with the privileges) no longer reports it, and the server resolves it then.
 */
export function privilegeGapFinding(phase: PhaseId, gap: PrivilegeGap): FindingInput {
  return phaseFinding(phase, {
    check: PRIVILEGE_GAP_CHECK,
    subject: gap.subject ?? gap.check,
    severity: gap.severity,
    category: gap.category,
    ...(gap.controls ? { controls: gap.controls } : {}),
    title: `Not assessed without administrator (root) privileges: ${gap.what}`,
    detail: `${gap.reason}. Until a scan with those privileges makes the check, it counts as the most serious finding it can raise here (${gap.severity}), so that a scan without them never grades better than one with them.`,
    remediation:
      "Run the scan with administrator privileges: sudo hcs-scanner scan on Linux and macOS, an elevated PowerShell (Run as administrator) on Windows, or a scheduled task that runs as root or SYSTEM.",
    evidence: { not_assessed: gap.check, reason: gap.reason, counted_as: gap.severity },
  });
}
