import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  extraSuperusers,
  groupMembers,
  loginDefsNumber,
  parseDsclGroupMembership,
  parseNetAccounts,
  parseNetLocalgroup,
  parsePwpolicyAccountPolicies,
  parseScreenLockStatus,
} from "./parse.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("access control parsers", () => {
  it("reads admin groups, extra uid-0 accounts and password ageing on this Debian machine", () => {
    const groups = groupMembers(fixture("linux-group.txt"), ["sudo", "wheel", "admin"]);
    expect(groups.get("sudo")).toEqual([]);
    expect(extraSuperusers(fixture("linux-passwd.txt"))).toEqual([]);
    expect(extraSuperusers("root:x:0:0::/root:/bin/bash\ntoor:x:0:0::/root:/bin/sh\n")).toEqual(["toor"]);
    expect(loginDefsNumber(fixture("linux-login.defs"), "PASS_MAX_DAYS")).toBe(99999);
    expect(loginDefsNumber(fixture("linux-login.defs"), "PASS_MIN_LEN")).toBeNull();
  });

  it("reads net localgroup Administrators", () => {
    expect(parseNetLocalgroup(fixture("win32-net-localgroup-administrators.txt"))).toEqual(["Administrator", "user1"]);
  });

  it("reads the macOS admin group from dscl", () => {
    expect(parseDsclGroupMembership(fixture("darwin-dscl-admin-groupmembership.txt"))).toEqual(["root", "williamj"]);
    expect(parseDsclGroupMembership("No such key: GroupMembership")).toEqual([]);
    expect(parseDsclGroupMembership("<main> attribute status: eDSPermissionError")).toBeNull();
  });

  it("reads the stock macOS password policy: 4 characters, no lockout", () => {
    expect(parsePwpolicyAccountPolicies(fixture("darwin-pwpolicy-getaccountpolicies.txt"))).toEqual({
      minLength: 4,
      maxFailedAttempts: null,
    });
    expect(parsePwpolicyAccountPolicies("Getting global account policies")).toBeNull();
  });

  it("reads sysadminctl's screen lock status in its three shapes", () => {
    expect(parseScreenLockStatus(fixture("darwin-sysadminctl-screenlock-off.txt"))).toEqual({
      enabled: false,
      delaySeconds: null,
    });
    expect(parseScreenLockStatus(fixture("darwin-sysadminctl-screenlock-5s.txt"))).toEqual({
      enabled: true,
      delaySeconds: 5,
    });
    expect(parseScreenLockStatus(fixture("darwin-sysadminctl-screenlock-immediate.txt"))).toEqual({
      enabled: true,
      delaySeconds: 0,
    });
    expect(parseScreenLockStatus("")).toBeNull();
  });

  it("reads the Windows password policy from net accounts", () => {
    expect(parseNetAccounts(fixture("win32-net-accounts.txt"))).toEqual({
      minPasswordLength: 0,
      lockoutThreshold: null,
      maxPasswordAgeDays: 42,
    });
    expect(parseNetAccounts("System error 5 has occurred.")).toBeNull();
  });
});
