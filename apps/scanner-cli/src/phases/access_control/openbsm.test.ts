import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseSystemsetupNetworkTime } from "./audit.js";
import {
  classRecorded,
  judgeOpenbsm,
  openbsmFlagGaps,
  parseAuditControl,
  parseExpireAfter,
  retentionShort,
} from "./openbsm.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const stock = fixture("darwin-etc-security-audit_control.txt");

describe("OpenBSM audit_control", () => {
  it("reads Apple's stock file: lo and aa recorded, trail expired after 10 MB", () => {
    const control = parseAuditControl(stock)!;
    expect(control).toEqual({
      dirs: ["/var/audit"],
      flags: ["lo", "aa"],
      naflags: ["lo", "aa"],
      policy: ["cnt", "argv"],
      filesz: "2M",
      expireAfter: "10M",
    });
    expect(openbsmFlagGaps(control)).toEqual([]);
    expect(parseExpireAfter("10M")).toEqual({ days: null, bytes: 10 * 1024 ** 2, combine: null });
  });

  it("judges the stock file: logins recorded, retention short (10 MB)", () => {
    const s = judgeOpenbsm(parseAuditControl(stock)!);
    expect(s.findings.map((f) => [f.id, f.severity, f.controls])).toEqual([
      ["access_control.audit_retention_short", "low", ["164.312(b)", "164.316(b)(2)(i)"]],
    ]);
    expect(s.facts).toMatchObject({ configured: true, expire_after: "10M", not_recorded: [], retention_short: true });
  });

  it("the CIS setting keeps the trail; a combination is judged by how it joins", () => {
    const cis = stock.replace("expire-after:10M", "expire-after:60d OR 1G");
    expect(judgeOpenbsm(parseAuditControl(cis)!).findings).toEqual([]);
    expect(retentionShort(parseExpireAfter("60d OR 1G")!)).toBe(false);
    expect(retentionShort(parseExpireAfter("30d OR 10G")!)).toBe(true);
    // AND removes a file only when both limits are reached: 90 days keeps it long enough.
    expect(retentionShort(parseExpireAfter("90d AND 10M")!)).toBe(false);
    expect(retentionShort(parseExpireAfter("30d AND 10M")!)).toBe(true);
    expect(retentionShort(parseExpireAfter("1y")!)).toBe(false);
    // audit_control(5) units are case-sensitive: an unknown unit is not judged.
    expect(parseExpireAfter("60D")).toBeNull();
    const odd = judgeOpenbsm(parseAuditControl(stock.replace("expire-after:10M", "expire-after:60D"))!);
    expect(odd.findings).toEqual([]);
    expect(odd.facts.retention_short).toBeNull();
    // Without expire-after auditd removes nothing.
    expect(judgeOpenbsm(parseAuditControl(stock.replace("expire-after:10M\n", ""))!).findings).toEqual([]);
  });

  it("flags without logins or with failures only: audit_policy_gaps naming the class and outcome", () => {
    expect(classRecorded(["-lo", "aa"], "lo")).toEqual({ success: false, failure: true });
    expect(classRecorded(["all", "^+lo"], "lo")).toEqual({ success: false, failure: true });
    const weakened = stock.replace("flags:lo,aa\n", "flags:-lo,ad\n").replace("expire-after:10M", "expire-after:60d");
    const s = judgeOpenbsm(parseAuditControl(weakened)!);
    expect(s.findings.map((f) => [f.id, f.severity])).toEqual([["access_control.audit_policy_gaps", "medium"]]);
    expect(s.findings[0]!.evidence).toEqual({
      flags: ["-lo", "ad"],
      not_recorded: ["lo (success)", "aa (success and failure)"],
    });
  });

  it("no audit_control (macOS 14 and later, as shipped): OpenBSM is not configured", () => {
    const s = judgeOpenbsm("absent");
    expect(s.findings.map((f) => [f.id, f.severity])).toEqual([["access_control.openbsm_not_configured", "low"]]);
    expect(s.facts).toEqual({ configured: false });
    expect(parseAuditControl("# nothing here\n")).toBeNull();
  });
});

describe("macOS network time (systemsetup -getusingnetworktime)", () => {
  it("reads On and Off; the refusal without admin is not an answer", () => {
    expect(parseSystemsetupNetworkTime(fixture("darwin-systemsetup-getusingnetworktime-on.txt"))).toEqual({
      networkTime: true,
    });
    const off = fixture("darwin-systemsetup-getusingnetworktime-on.txt").replace("On", "Off");
    expect(parseSystemsetupNetworkTime(off)).toEqual({ networkTime: false });
    expect(parseSystemsetupNetworkTime(fixture("darwin-systemsetup-getusingnetworktime-denied.txt"))).toBeNull();
  });
});
