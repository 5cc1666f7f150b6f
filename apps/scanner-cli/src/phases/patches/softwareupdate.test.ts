import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseSoftwareUpdatePrefs } from "./softwareupdate.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("Software Update record", () => {
  it("reads the pending updates, the last check and the automatic settings of a Mac with updates waiting", () => {
    const s = parseSoftwareUpdatePrefs(fixture("darwin-defaults-softwareupdate-pending.txt"))!;
    expect(s.recommendedCount).toBe(3);
    expect(s.recommended.map((u) => [u.name, u.security])).toEqual([
      ["Safari", false],
      ["macOS Catalina 10.15.7 Supplemental Update", true],
      ["macOS Catalina Security Update 2021-001", true],
    ]);
    expect(s.lastFullCheck?.toISOString()).toBe("2021-02-23T07:52:51.000Z");
    expect(s).toMatchObject({
      automaticCheck: true,
      automaticDownload: true,
      criticalUpdateInstall: false,
      automaticMacOSUpdates: false,
    });
  });

  it("reads an up-to-date Mac whose record leaves the check and security-response keys at their defaults", () => {
    const s = parseSoftwareUpdatePrefs(fixture("darwin-defaults-softwareupdate-current.txt"))!;
    expect(s.recommendedCount).toBe(0);
    expect(s.recommended).toEqual([]);
    expect(s.automaticCheck).toBeUndefined();
    expect(s.criticalUpdateInstall).toBeUndefined();
    expect(s.automaticMacOSUpdates).toBe(true);
    expect(s.lastFullCheck?.toISOString()).toBe("2020-10-10T14:14:38.000Z");
  });

  it("returns null for anything that is not the domain", () => {
    expect(parseSoftwareUpdatePrefs("unrecognised output")).toBeNull();
  });
});
