import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sudoWithoutPassword } from "./sudoers.js";

const ubuntu = readFileSync(new URL("./fixtures/linux-sudoers-ubuntu.txt", import.meta.url), "utf8");

describe("sudoers", () => {
  it("an Ubuntu machine's /etc/sudoers asks every rule for a password", () => {
    expect(sudoWithoutPassword(ubuntu, "/etc/sudoers")).toEqual([]);
  });

  it("NOPASSWD rules and a global !authenticate are found, with who they are for", () => {
    const edited = ubuntu.replace("%sudo\tALL=(ALL:ALL) ALL", "%sudo\tALL=(ALL:ALL) NOPASSWD: ALL");
    expect(sudoWithoutPassword(edited, "/etc/sudoers")).toEqual([{ who: "%sudo", file: "/etc/sudoers" }]);
    expect(
      sudoWithoutPassword(
        "Defaults:deploy !authenticate\nbackup ALL=(root) NOPASSWD: /usr/bin/rsync, \\\n    /usr/bin/tar\n# ops ALL=(ALL) NOPASSWD: ALL\nCmnd_Alias NOPASSWD_CMDS = /bin/true\n",
        "/etc/sudoers.d/90-ops",
      ),
    ).toEqual([
      { who: "Defaults:deploy", file: "/etc/sudoers.d/90-ops" },
      { who: "backup", file: "/etc/sudoers.d/90-ops" },
    ]);
  });
});
