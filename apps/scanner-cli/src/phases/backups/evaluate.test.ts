import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createFakeHost } from "../../host/fake-host.js";
import { Unavailable } from "../shared/unavailable.js";
import { evaluateBackups } from "./evaluate.js";
import { timeshiftRecord } from "./linux.js";
import { parseWbadminVersions } from "./parse.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const ids = (r: ReturnType<typeof evaluateBackups>) => r.findings.map((f) => f.id);

describe("backup evaluation", () => {
  const wbadmin = parseWbadminVersions(fixture("win32-wbadmin-get-versions.txt"));
  const record = { source: "windows_server_backup" as const, configured: true, lastBackupAt: wbadmin[0]!, count: 1 };

  it("accepts a backup younger than 48 hours and flags one older", () => {
    const fresh = evaluateBackups([], record, new Date("2026-07-01T12:00:00Z"));
    expect(ids(fresh)).toEqual([]);
    expect(fresh.facts.last_backup).toEqual({
      source: "windows_server_backup",
      at: "2026-06-30T19:26:00.000Z",
      age_hours: 17,
    });
    const stale = evaluateBackups([], record, new Date("2026-07-03T12:00:00Z"));
    expect(ids(stale)).toEqual(["backups.backup_stale"]);
    expect(stale.findings[0]).toMatchObject({ severity: "high", evidence: { age_hours: 65 } });
  });

  it("flags a configured tool without a completed backup, and no backup at all", () => {
    const never = { source: "timeshift" as const, configured: true, lastBackupAt: null, count: 0 };
    expect(ids(evaluateBackups(["timeshift"], never, new Date()))).toEqual(["backups.backup_never_completed"]);
    expect(ids(evaluateBackups([], null, new Date()))).toEqual(["backups.no_backup_agent"]);
    const notSetUp = { source: "time_machine" as const, configured: false, lastBackupAt: null };
    expect(ids(evaluateBackups([], notSetUp, new Date()))).toEqual(["backups.no_backup_agent"]);
  });

  it("draws no conclusion from a tool it could not read, and says why", () => {
    const r = evaluateBackups(
      [],
      new Unavailable("permission", "wbadmin needs administrator (root) privileges"),
      new Date(),
    );
    expect(ids(r)).toEqual([]);
    expect(r.facts).toMatchObject({
      native_backup_unavailable: "wbadmin needs administrator (root) privileges",
      restore_test_evidence: null,
    });
  });
});

describe("timeshift on Linux", () => {
  it("reads the newest snapshot through the host", async () => {
    const host = createFakeHost({
      platform: "linux",
      commands: { "timeshift --list": fixture("linux-timeshift-list-12.txt") },
    });
    const record = await timeshiftRecord(host, new AbortController().signal);
    expect(record).toEqual({
      source: "timeshift",
      configured: true,
      lastBackupAt: new Date(2019, 6, 16, 16, 35, 42),
      count: 12,
    });
    // Not installed: no native record to read, which is not a failure to read one.
    const missing = await timeshiftRecord(createFakeHost({ platform: "linux" }), new AbortController().signal);
    expect(missing).toBeNull();
    const notRoot = await timeshiftRecord(
      createFakeHost({ platform: "linux", commands: { "timeshift --list": { permissionDenied: true, exitCode: 1 } } }),
      new AbortController().signal,
    );
    expect(notRoot).toEqual(new Unavailable("permission", "timeshift needs administrator (root) privileges"));
  });
});
