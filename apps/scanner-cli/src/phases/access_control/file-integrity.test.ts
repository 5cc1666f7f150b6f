import { describe, expect, it } from "vitest";
import { createFakeHost, type FakeHostScript } from "../../host/fake-host.js";
import { linuxFileIntegrity } from "./linux-file-integrity.js";

const proc = (name: string, pid = 10) => ({ pid, name, command: name, user: "root" });
const host = (files: FakeHostScript["files"], processes = ["systemd", "sshd"], isPrivileged = true) =>
  createFakeHost({
    platform: "linux",
    isPrivileged,
    files,
    sysinfo: { processes: processes.map((n, i) => proc(n, i + 1)) },
  });

describe("Linux file integrity (164.312(c)(1))", () => {
  it("no tool at all: one low finding citing 164.312(c)(1)", async () => {
    const state = await linuxFileIntegrity(host({}));
    expect(state.findings.map((f) => [f.id, f.severity, f.controls])).toEqual([
      ["access_control.no_file_integrity_monitoring", "low", ["164.312(c)(1)"]],
    ]);
    expect(state.findings[0]!.title).toBe("No file integrity monitoring watches this machine's files");
    expect(state.facts.file_integrity).toEqual({ tools: [], watching: false });
  });

  it("AIDE with its baseline (Debian aide.db, RHEL aide.db.gz) watches; nothing is raised", async () => {
    for (const db of ["/var/lib/aide/aide.db", "/var/lib/aide/aide.db.gz"]) {
      const state = await linuxFileIntegrity(host({ "/usr/bin/aide": "", [db]: "" }));
      expect(state.findings).toEqual([]);
      expect(state.facts.file_integrity).toMatchObject({ watching: true, tools: [{ tool: "aide", watching: true }] });
    }
  });

  it("AIDE installed but never initialised, or initialised and left as aide.db.new: the title says so", async () => {
    const never = await linuxFileIntegrity(host({ "/usr/bin/aide": "" }));
    expect(never.findings[0]!.title).toBe(
      "AIDE is installed but watches nothing (no baseline database (aideinit never ran))",
    );
    const notMoved = await linuxFileIntegrity(host({ "/usr/bin/aide": "", "/var/lib/aide/aide.db.new": "" }));
    expect(notMoved.findings[0]!.title).toMatch(/aide\.db\.new was created but never moved into place/);
    expect(notMoved.findings[0]!.remediation).toMatch(/aideinit/);
  });

  it("without root an AIDE baseline cannot be looked for: not assessed, no finding", async () => {
    const state = await linuxFileIntegrity(host({ "/usr/bin/aide": "" }, ["systemd"], false));
    expect(state.findings).toEqual([]);
    expect(state.unavailable).toMatch(/root/);
    expect(state.facts.file_integrity).toMatchObject({ watching: null });
  });

  it("osquery watches only with file_paths configured and osqueryd running; Wazuh syscheck likewise", async () => {
    const conf = '{ "file_paths": { "etc": ["/etc/%%"] }, "schedule": {} }';
    const running = await linuxFileIntegrity(host({ "/etc/osquery/osquery.conf": conf }, ["osqueryd"]));
    expect(running.findings).toEqual([]);
    const stopped = await linuxFileIntegrity(host({ "/etc/osquery/osquery.conf": conf }, ["sshd"]));
    expect(stopped.findings[0]!.title).toMatch(/osquery is installed but watches nothing \(osqueryd not running\)/);
    const wazuh =
      "<ossec_config>\n  <syscheck>\n    <disabled>no</disabled>\n    <frequency>43200</frequency>\n  </syscheck>\n</ossec_config>\n";
    const agent = await linuxFileIntegrity(host({ "/var/ossec/etc/ossec.conf": wazuh }, ["wazuh-syscheckd"]));
    expect(agent.findings).toEqual([]);
  });
});
