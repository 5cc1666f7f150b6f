import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseFdesetupStatus, parseLsblkVolumes, parseManageBdeStatus } from "./parse.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("disk encryption parsers", () => {
  it("reads this Debian machine's lsblk: the root filesystem sits on a bare disk", () => {
    expect(parseLsblkVolumes(fixture("linux-lsblk-plain.json"))).toEqual([
      { volume: "vda", mount: "/", encrypted: false, method: "none" },
    ]);
  });

  it("sees LUKS under the root filesystem, a plain data disk, and skips /boot, the ESP and USB media", () => {
    expect(parseLsblkVolumes(fixture("linux-lsblk-luks.json"))).toEqual([
      { volume: "nvme0n1p3_crypt", mount: "/", encrypted: true, method: "luks" },
      { volume: "sda1", mount: "/srv/imaging", encrypted: false, method: "none" },
    ]);
    expect(parseLsblkVolumes("{}")).toBeNull();
  });

  it("reads manage-bde -status volume by volume", () => {
    const v = parseManageBdeStatus(fixture("win32-manage-bde-status.txt"));
    expect(v.map((x) => [x.volume, x.encrypted, x.method])).toEqual([
      ["C:", false, "none"],
      ["J:", false, "none"],
      ["K:", false, "none"],
    ]);
    const suspended =
      "Volume D: [Data]\n[Data Volume]\n    Conversion Status:    Fully Encrypted\n    Protection Status:    Protection Off\n";
    expect(parseManageBdeStatus(suspended)[0]).toMatchObject({ encrypted: false, method: "suspended" });
  });

  it("reads fdesetup status", () => {
    expect(parseFdesetupStatus(fixture("darwin-fdesetup-on.txt"))?.[0]?.encrypted).toBe(true);
    expect(parseFdesetupStatus(fixture("darwin-fdesetup-off.txt"))?.[0]?.encrypted).toBe(false);
    expect(parseFdesetupStatus("fdesetup: command not found")).toBeNull();
  });
});
