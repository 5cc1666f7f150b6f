import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseNetshProfiles, parseSocketfilterfwState, parseUfwStatus } from "./parse.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("segmentation parsers", () => {
  it("reads ufw status as captured on this Debian machine", () => {
    expect(parseUfwStatus(fixture("linux-ufw-status-inactive.txt"))).toBe("inactive");
    expect(
      parseUfwStatus(
        "Status: active\nLogging: on (low)\nDefault: deny (incoming), allow (outgoing), disabled (routed)\n",
      ),
    ).toBe("active");
    expect(parseUfwStatus("ERROR: You need to be root to run this script")).toBeNull();
  });

  it("reads the macOS Application Firewall's global state", () => {
    expect(parseSocketfilterfwState(fixture("darwin-socketfilterfw-enabled.txt"))).toBe("on");
    expect(parseSocketfilterfwState(fixture("darwin-socketfilterfw-disabled.txt"))).toBe("off");
    expect(parseSocketfilterfwState("Must be root to change settings.")).toBeNull();
  });

  it("reads every Windows Firewall profile from netsh", () => {
    const all = fixture("win32-netsh-advfirewall-allprofiles.txt");
    expect(parseNetshProfiles(all)).toEqual([
      { profile: "Domain", enabled: false },
      { profile: "Private", enabled: false },
      { profile: "Public", enabled: false },
    ]);
    // The same capture with one profile switched on: the State line of each block is read, not the first one.
    const privateOn = all.replace(
      /(Private Profile Settings:\n-+\n)State\s+OFF/,
      "$1State                                 ON",
    );
    expect(parseNetshProfiles(privateOn)?.map((p) => p.enabled)).toEqual([false, true, false]);
    expect(parseNetshProfiles(fixture("win32-netsh-advfirewall-currentprofile.txt"))).toEqual([
      { profile: "Domain", enabled: false },
    ]);
    expect(parseNetshProfiles("unrecognised output")).toBeNull();
  });
});
