import { readFileSync } from "node:fs";
import { BackupReadinessSchema } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { createFakeHost } from "../../host/fake-host.js";
import { Unavailable } from "../shared/unavailable.js";
import { type BackupContext, evaluateBackups } from "./evaluate.js";
import { linuxBackups, rsnapshotRecord, timeshiftRecord, veeamRecord } from "./linux.js";
import { parseWbadminVersions } from "./parse.js";
import type { BackupReading } from "./record.js";
import { resticRecord } from "./repositories.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const ids = (r: ReturnType<typeof evaluateBackups>) => r.findings.map((f) => f.id);
const signal = new AbortController().signal;
const context = (o: Partial<BackupContext> = {}): BackupContext => ({
  agents: [],
  softwareListed: true,
  ephiBearing: false,
  ephiReasons: [],
  now: new Date("2026-07-01T12:00:00Z"),
  ...o,
});
const readiness = (r: ReturnType<typeof evaluateBackups>) => BackupReadinessSchema.parse(r.facts.readiness);

describe("backup evaluation", () => {
  const wbadmin = parseWbadminVersions(fixture("win32-wbadmin-get-versions.txt"));
  const reading: BackupReading = {
    records: [{ tool: "windows_server_backup", configured: true, lastBackupAt: wbadmin[0]!, count: 1 }],
    unread: [],
  };

  it("accepts a backup younger than 48 hours and flags one older", () => {
    const fresh = evaluateBackups(reading, context());
    expect(ids(fresh)).toEqual([]);
    expect(fresh.facts.last_backup).toEqual({
      source: "windows_server_backup",
      at: "2026-06-30T19:26:00.000Z",
      age_hours: 17,
    });
    expect(readiness(fresh).backup).toEqual({
      state: "recent",
      tool: "windows_server_backup",
      at: "2026-06-30T19:26:00.000Z",
      age_hours: 17,
    });
    const stale = evaluateBackups(reading, context({ now: new Date("2026-07-03T12:00:00Z") }));
    expect(ids(stale)).toEqual(["backups.backup_stale"]);
    expect(stale.findings[0]).toMatchObject({ severity: "high", evidence: { age_hours: 65 } });
    expect(readiness(stale).backup.state).toBe("stale");
  });

  it("the newest backup of any tool decides", () => {
    const two: BackupReading = {
      records: [
        { tool: "timeshift", configured: true, lastBackupAt: new Date("2026-05-01T00:00:00Z"), count: 3 },
        { tool: "restic", configured: true, lastBackupAt: new Date("2026-07-01T02:00:00Z"), count: 40 },
      ],
      unread: [],
    };
    const r = evaluateBackups(two, context());
    expect(ids(r)).toEqual([]);
    expect(readiness(r).backup).toMatchObject({ state: "recent", tool: "restic", age_hours: 10 });
  });

  it("caps an ePHI-bearing machine with no backup, or a tool that never completed one; not one that holds none", () => {
    const ephi = { ephiBearing: true, ephiReasons: ["database software installed"] };
    const none = evaluateBackups({ records: [], unread: [] }, context(ephi));
    expect(ids(none)).toEqual(["backups.no_backup_agent"]);
    expect(none.findings[0]).toMatchObject({ grade_cap: "ephi_device_without_backup", severity: "high" });
    expect(readiness(none)).toMatchObject({ ephi_bearing: true, backup: { state: "none" } });
    const never: BackupReading = {
      records: [{ tool: "timeshift", configured: true, lastBackupAt: null, count: 0 }],
      unread: [],
    };
    const neverEphi = evaluateBackups(never, context(ephi));
    expect(ids(neverEphi)).toEqual(["backups.backup_never_completed"]);
    expect(neverEphi.findings[0]?.grade_cap).toBe("ephi_device_without_backup");
    expect(evaluateBackups(never, context()).findings[0]?.grade_cap).toBeUndefined();
    expect(evaluateBackups({ records: [], unread: [] }, context()).findings[0]?.grade_cap).toBeUndefined();
    const notSetUp: BackupReading = {
      records: [{ tool: "time_machine", configured: false, lastBackupAt: null }],
      unread: [],
    };
    expect(ids(evaluateBackups(notSetUp, context()))).toEqual(["backups.no_backup_agent"]);
  });

  it("draws no conclusion from a tool or a software list it could not read, and says why", () => {
    const unreadable = evaluateBackups(
      {
        records: [],
        unread: [{ tool: "windows_server_backup", message: "wbadmin needs administrator (root) privileges" }],
      },
      context(),
    );
    expect(ids(unreadable)).toEqual([]);
    expect(unreadable.notEstablished).toBe("wbadmin needs administrator (root) privileges");
    expect(unreadable.facts.tools_not_read).toEqual({
      windows_server_backup: "wbadmin needs administrator (root) privileges",
    });
    expect(readiness(unreadable).backup.state).toBe("not_established");
    const wholeReading = evaluateBackups(new Unavailable("permission", "needs an elevated shell"), context());
    expect([ids(wholeReading), wholeReading.notEstablished]).toEqual([[], "needs an elevated shell"]);
    const noSoftwareList = evaluateBackups({ records: [], unread: [] }, context({ softwareListed: false }));
    expect([ids(noSoftwareList), readiness(noSoftwareList).backup.state]).toEqual([[], "not_established"]);
    // An agent recognised by name whose record the scanner does not read: present, its last backup unknown.
    const acronis = evaluateBackups({ records: [], unread: [] }, context({ agents: ["acronis"] }));
    expect(ids(acronis)).toEqual([]);
    expect(acronis.notEstablished).toMatch(/acronis/);
  });

  it("carries the newest restore a tool recorded, and which tools record restores", () => {
    const veeam: BackupReading = {
      records: [
        {
          tool: "veeam",
          configured: true,
          lastBackupAt: new Date("2026-07-01T02:00:00Z"),
          count: 3,
          restores: {
            count: 1,
            latest: { at: new Date("2026-03-02T10:00:00Z"), durationMinutes: 95, succeeded: true },
          },
        },
      ],
      unread: [],
    };
    const r = readiness(evaluateBackups(veeam, context()));
    expect(r.restore).toEqual({ tool: "veeam", at: "2026-03-02T10:00:00.000Z", duration_minutes: 95, succeeded: true });
    expect(r.restore_records_kept_by).toEqual(["veeam"]);
  });
});

describe("the Linux tools, through the host", () => {
  it("timeshift: the newest snapshot; not installed is no record, not root is a reason", async () => {
    const host = createFakeHost({
      platform: "linux",
      commands: { "timeshift --list": fixture("linux-timeshift-list-12.txt") },
    });
    expect(await timeshiftRecord(host, signal)).toEqual({
      tool: "timeshift",
      configured: true,
      lastBackupAt: new Date(2019, 6, 16, 16, 35, 42),
      count: 12,
    });
    expect(await timeshiftRecord(createFakeHost({ platform: "linux" }), signal)).toBeNull();
    const notRoot = await timeshiftRecord(
      createFakeHost({ platform: "linux", commands: { "timeshift --list": { permissionDenied: true, exitCode: 1 } } }),
      signal,
    );
    // A permission refusal says so: without root it is a privilege gap (docs/scanner.md, "Checks that need privileges").
    expect(notRoot).toEqual({
      tool: "timeshift",
      message: "timeshift needs administrator (root) privileges",
      kind: "permission",
    });
  });

  it("Veeam: the newest successful backup session and the newest finished restore with its duration", async () => {
    const host = createFakeHost({
      platform: "linux",
      commands: { "veeamconfig session list": fixture("linux-veeamconfig-session-list.txt") },
    });
    expect(await veeamRecord(host, signal)).toEqual({
      tool: "veeam",
      configured: true,
      lastBackupAt: new Date(2026, 0, 14, 22, 0),
      count: 3,
      restores: { count: 1, latest: { at: new Date(2025, 10, 20, 10, 5), durationMinutes: 102, succeeded: true } },
    });
  });

  it("rsnapshot: the log named by its configuration, through tail", async () => {
    const host = createFakeHost({
      platform: "linux",
      files: { "/etc/rsnapshot.conf": fixture("linux-rsnapshot.conf") },
      commands: { "tail -n 5000 /var/log/rsnapshot.log": fixture("linux-rsnapshot.log") },
    });
    expect(await rsnapshotRecord(host, signal)).toEqual({
      tool: "rsnapshot",
      configured: true,
      lastBackupAt: new Date(2017, 7, 4, 3, 44, 14),
      count: 1,
      destinations: ["local_disk"],
    });
    expect(await rsnapshotRecord(createFakeHost({ platform: "linux" }), signal)).toBeNull();
    const noLog = createFakeHost({ platform: "linux", files: { "/etc/rsnapshot.conf": "snapshot_root\t/srv/\n" } });
    expect(await rsnapshotRecord(noLog, signal)).toMatchObject({ tool: "rsnapshot", message: /keeps no log/ });
  });

  it("restic: the listing with the scan's environment, else why not (never its own words)", async () => {
    const listed = createFakeHost({
      platform: "linux",
      commands: { "restic snapshots --json --no-lock": fixture("linux-restic-snapshots.json") },
    });
    expect(await resticRecord(listed, signal)).toEqual({
      tool: "restic",
      configured: true,
      lastBackupAt: new Date("2024-03-02T13:35:10.604Z"),
      count: 2,
    });
    // Only the times leave: not the backed-up paths, the host name or the user the listing names.
    const facts = JSON.stringify(
      evaluateBackups({ records: [(await resticRecord(listed, signal)) as never], unread: [] }, context()).facts,
    );
    expect(facts).not.toMatch(/hunk|ceph|DESKTOP-JFUCNKU/);
    const unconfigured = createFakeHost({
      platform: "linux",
      commands: {
        "restic snapshots --json --no-lock": { stderr: fixture("linux-restic-no-repository.txt"), exitCode: 1 },
      },
    });
    expect(await resticRecord(unconfigured, signal)).toEqual({
      tool: "restic",
      message: expect.stringMatching(/RESTIC_REPOSITORY/),
    });
  });

  it("a machine with none of them: nothing read, nothing unread", async () => {
    expect(await linuxBackups(createFakeHost({ platform: "linux" }), signal)).toEqual({ records: [], unread: [] });
  });
});
