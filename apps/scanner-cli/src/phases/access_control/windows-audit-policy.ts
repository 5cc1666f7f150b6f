/**
 * Windows audit policy (`auditpol /get /category:*`): whether the events that show who logged on, who was locked out
 * and who changed accounts or the audit policy itself are recorded (164.312(b)). Pure. auditpol translates its labels
 * and settings, so only English output is read.
 */
import type { FindingInput } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";

export interface AuditSetting {
  readonly success: boolean;
  readonly failure: boolean;
}

/** Subcategory → what it records; null when the text is not auditpol's English output. */
export function parseAuditpol(text: string): Map<string, AuditSetting> | null {
  if (!/^System audit policy\s*$/m.test(text)) return null;
  const out = new Map<string, AuditSetting>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^ {2}(\S.*?)\s{2,}(Success and Failure|Success|Failure|No Auditing)\s*$/.exec(line);
    if (!m) continue;
    out.set(m[1]!, { success: m[2]!.startsWith("Success"), failure: m[2]!.endsWith("Failure") });
  }
  return out.size > 0 ? out : null;
}

/**
 * What must be recorded, after Microsoft's security baseline for Windows 10/11: logons (and failed ones, for
 * password guessing), lockouts, changes to user accounts and security groups, and changes to the audit policy.
 */
export const REQUIRED_AUDITING: ReadonlyArray<readonly [string, AuditSetting]> = [
  ["Logon", { success: true, failure: true }],
  ["Account Lockout", { success: true, failure: false }],
  ["User Account Management", { success: true, failure: false }],
  ["Security Group Management", { success: true, failure: false }],
  ["Audit Policy Change", { success: true, failure: false }],
];

/** Each required subcategory that misses an outcome it should record, named with what is missing. */
export function auditPolicyGaps(policy: ReadonlyMap<string, AuditSetting>): string[] {
  const gaps: string[] = [];
  for (const [name, want] of REQUIRED_AUDITING) {
    const have = policy.get(name) ?? { success: false, failure: false };
    const missing = [want.success && !have.success ? "success" : null, want.failure && !have.failure ? "failure" : null]
      .filter(Boolean)
      .join(" and ");
    if (missing) gaps.push(`${name} (${missing})`);
  }
  return gaps;
}

export function auditPolicyFinding(gaps: readonly string[]): FindingInput | null {
  if (gaps.length === 0) return null;
  return phaseFinding("access_control", {
    check: "audit_policy_gaps",
    severity: "medium",
    title: "Windows does not audit every logon and account change",
    detail: `The audit policy does not record: ${gaps.join(", ")}. Without these events, who used this machine and who changed its accounts cannot be shown.`,
    remediation:
      'Enable those subcategories by Group Policy (Advanced Audit Policy Configuration) or auditpol /set /subcategory:"Logon" /success:enable /failure:enable, and size the Security log to keep your retention period.',
    evidence: { not_recorded: [...gaps] },
    controls: ["164.312(b)", "164.308(a)(5)(ii)(C)"],
  });
}
