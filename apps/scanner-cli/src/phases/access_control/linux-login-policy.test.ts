import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createFakeHost, type FakeFile } from "../../host/fake-host.js";
import { runPhases } from "../../runner/run-phases.js";
import { accessControlPhase } from "./index.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const scope = { mode: "host" as const, hosts: ["127.0.0.1"], given: [] };

async function accessControlWith(files: Record<string, string | FakeFile>) {
  const host = createFakeHost({
    platform: "linux",
    files: { "/etc/group": fixture("linux-group.txt"), "/etc/passwd": fixture("linux-passwd.txt"), ...files },
  });
  const [r] = await runPhases({ host, phases: [accessControlPhase], scope, options: { ephiPaths: [] } });
  return r!;
}

describe("Linux sudo rules", () => {
  it("NOPASSWD in /etc/sudoers or a drop-in is one finding naming who and where", async () => {
    const sudoers = fixture("linux-sudoers-ubuntu.txt").replace(
      "%sudo\tALL=(ALL:ALL) ALL",
      "%sudo\tALL=(ALL:ALL) NOPASSWD: ALL",
    );
    const r = await accessControlWith({
      "/etc/sudoers": sudoers,
      "/etc/sudoers.d/90-backup": "backup ALL=(root) NOPASSWD: /usr/bin/rsync\n",
    });
    const f = r.findings.find((x) => x.check_id === "access_control.sudo_without_password");
    expect(f).toMatchObject({
      severity: "medium",
      controls: ["164.312(d)", "164.312(a)(2)(i)"],
      title: "sudo runs commands as root without a password for %sudo, backup",
    });
    expect(r.facts.sudo_without_password).toEqual(["%sudo (/etc/sudoers)", "backup (/etc/sudoers.d/90-backup)"]);
  });

  it("an unreadable sudoers (no root) is named as not assessed; no sudo installed is no rule at all", async () => {
    const unreadable = await accessControlWith({
      "/etc/sudoers": { content: fixture("linux-sudoers-ubuntu.txt"), readable: false },
    });
    expect(unreadable.findings.some((x) => x.check_id === "access_control.sudo_without_password")).toBe(false);
    expect(unreadable.facts.not_assessed).toMatchObject({ sudo_policy: "/etc/sudoers is readable by root only" });
    const none = await accessControlWith({});
    expect(none.facts.sudo_without_password).toBeUndefined();
    expect((none.facts.not_assessed as Record<string, string>).sudo_policy).toBeUndefined();
  });
});
