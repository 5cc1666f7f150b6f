import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseAptUpgradable, unattendedUpgradesEnabled } from "./parse.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("patch parsers", () => {
  it("counts pending and security updates in this Debian machine's apt list", () => {
    const u = parseAptUpgradable(fixture("linux-apt-list-upgradable.txt"));
    expect(u.total).toBe(123);
    expect(u.security).toBeGreaterThan(0);
    expect(u.packages).toContainEqual({ name: "apt", security: true });
    expect(u.packages).toContainEqual({ name: "appstream", security: false });
  });

  it("reads the unattended-upgrades switch", () => {
    expect(
      unattendedUpgradesEnabled('APT::Periodic::Update-Package-Lists "1";\nAPT::Periodic::Unattended-Upgrade "1";\n'),
    ).toBe(true);
    expect(unattendedUpgradesEnabled('APT::Periodic::Unattended-Upgrade "0";\n')).toBe(false);
    expect(unattendedUpgradesEnabled("")).toBe(false);
  });
});
