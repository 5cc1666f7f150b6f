import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseWbadminTargets } from "./parse.js";
import { borgProblem, parseBorgList, parseResticSnapshots, resticProblem } from "./parse-repositories.js";
import { parseRsnapshotLog, parseRsnapshotLogfile } from "./parse-rsnapshot.js";
import { parseVeeamSessionList } from "./parse-veeam.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("restic", () => {
  it("reads every snapshot's start from `snapshots --json`, nanoseconds and offset included, oldest first", () => {
    expect(parseResticSnapshots(fixture("linux-restic-snapshots.json"))).toEqual([
      new Date("2024-03-02T13:33:49.139Z"),
      new Date("2024-03-02T13:35:10.604Z"),
    ]);
    expect(parseResticSnapshots("[]")).toEqual([]);
    expect(parseResticSnapshots("Fatal: wrong password or no key found")).toBeNull();
    expect(parseResticSnapshots('[{"time":"yesterday"}]')).toBeNull();
  });

  it("says why there was no listing without repeating restic's words (they may name the repository)", () => {
    expect(resticProblem(fixture("linux-restic-no-repository.txt"))).toMatch(/no repository configured for this scan/);
    expect(resticProblem("Fatal: wrong password or no key found\n")).toMatch(/without its password/);
    expect(resticProblem("Fatal: unable to open /mnt/ehr-backups/restic: no such file")).not.toContain("/mnt");
  });
});

describe("Borg", () => {
  it("reads archive starts (local time, no zone) and the repository's kind from `list --json`", () => {
    expect(parseBorgList(fixture("linux-borg-list.json"))).toEqual({
      starts: [new Date(2017, 7, 7, 12, 27, 20)],
      target: "local_disk",
    });
    const remote = fixture("linux-borg-list.json").replace(
      '"/home/user/repository"',
      '"ssh://backup@nas.clinic.lan/./ehr"',
    );
    expect(parseBorgList(remote)?.target).toBe("remote_ssh");
    expect(parseBorgList("not json")).toBeNull();
    expect(borgProblem("passphrase supplied in BORG_PASSPHRASE is incorrect")).toMatch(/passphrase/);
    expect(borgProblem("Repository /srv/borg does not exist.")).not.toContain("/srv");
  });
});

describe("rsnapshot", () => {
  it("finds the log its configuration names (tab-separated), and none when unset", () => {
    expect(parseRsnapshotLogfile(fixture("linux-rsnapshot.conf"))).toBe("/var/log/rsnapshot.log");
    expect(parseRsnapshotLogfile("#logfile\t/var/log/rsnapshot.log\nsnapshot_root\t/srv/\n")).toBeNull();
  });

  it("reads completed runs and the last error from its log, in either timestamp form", () => {
    expect(parseRsnapshotLog(fixture("linux-rsnapshot.log"))).toEqual({
      completed: [new Date(2017, 7, 4, 3, 44, 14)],
      lastErrorAt: new Date(2015, 4, 4, 8, 7, 48),
    });
    expect(
      parseRsnapshotLog("[2024-08-04T03:44:14] /usr/bin/rsnapshot daily: completed, but with some warnings\n"),
    ).toEqual({ completed: [new Date(2024, 7, 4, 3, 44, 14)], lastErrorAt: null });
    expect(parseRsnapshotLog("")).toBeNull();
  });
});

describe("Veeam Agent for Linux", () => {
  it("reads each session's kind, state, start and finish; the job name is not kept", () => {
    const sessions = parseVeeamSessionList(fixture("linux-veeamconfig-session-list.txt"))!;
    expect(sessions).toHaveLength(5);
    expect(sessions[0]).toEqual({
      kind: "restore",
      state: "success",
      startedAt: new Date(2025, 10, 20, 10, 5),
      finishedAt: new Date(2025, 10, 20, 11, 47),
    });
    expect(sessions.map((s) => [s.kind, s.state])).toEqual([
      ["restore", "success"],
      ["backup", "failed"],
      ["backup", "success"],
      ["backup", "warning"],
      ["backup", "success"],
    ]);
    expect(JSON.stringify(sessions)).not.toContain("EHR");
  });

  it("keeps a running session without a finish, and refuses text that is no session list", () => {
    const running = parseVeeamSessionList(
      "Job name  Type    ID                                      State    Started at        Finished at\n" +
        "Nightly   Backup  {2b6d6d5e-8c1a-4e0c-9b6f-3f1d0e7a5c11}  Running  2026-01-15 22:00\nTotal amount: 1\n",
    );
    expect(running).toEqual([
      { kind: "backup", state: "running", startedAt: new Date(2026, 0, 15, 22, 0), finishedAt: null },
    ]);
    expect(parseVeeamSessionList("veeamservice is not running")).toBeNull();
  });
});

describe("wbadmin targets", () => {
  it("reads the kind of each target, never its label", () => {
    expect(parseWbadminTargets(fixture("win32-wbadmin-get-versions.txt"))).toEqual(["local_disk"]);
    expect(parseWbadminTargets("Backup target: Network Share labeled \\\\nas\\ehr\r\n")).toEqual(["network_share"]);
  });
});
