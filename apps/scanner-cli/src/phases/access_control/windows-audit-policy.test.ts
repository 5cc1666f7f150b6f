import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { auditPolicyFinding, auditPolicyGaps, parseAuditpol } from "./windows-audit-policy.js";

const tuned = readFileSync(new URL("./fixtures/win32-auditpol-get-category-all.txt", import.meta.url), "utf8");

describe("Windows audit policy (auditpol /get /category:*)", () => {
  it("reads every subcategory of a Windows 10 machine tuned for logging: nothing required is missing", () => {
    const policy = parseAuditpol(tuned)!;
    expect(policy.size).toBe(59);
    expect(policy.get("Logon")).toEqual({ success: true, failure: true });
    expect(policy.get("Other System Events")).toEqual({ success: false, failure: true });
    expect(policy.get("User / Device Claims")).toEqual({ success: false, failure: false });
    expect(auditPolicyGaps(policy)).toEqual([]);
    expect(auditPolicyFinding([])).toBeNull();
  });

  it("failed logons and account changes not recorded: one finding naming what is missing", () => {
    const weakened = tuned
      .replace(/^( {2}Logon {2,})Success and Failure$/m, "$1Success")
      .replace(/^( {2}User Account Management {2,})Success and Failure$/m, "$1No Auditing");
    const gaps = auditPolicyGaps(parseAuditpol(weakened)!);
    expect(gaps).toEqual(["Logon (failure)", "User Account Management (success)"]);
    expect(auditPolicyFinding(gaps)).toMatchObject({
      id: "access_control.audit_policy_gaps",
      severity: "medium",
      controls: ["164.312(b)", "164.308(a)(5)(ii)(C)"],
    });
  });

  it("does not read translated output", () => {
    expect(parseAuditpol("Systemüberwachungsrichtlinie\nKategorie/Unterkategorie  Einstellung\n")).toBeNull();
  });
});
