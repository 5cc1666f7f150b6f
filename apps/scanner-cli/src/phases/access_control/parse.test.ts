import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { extraSuperusers, groupMembers, loginDefsNumber, parseNetLocalgroup } from "./parse.js";

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
});
