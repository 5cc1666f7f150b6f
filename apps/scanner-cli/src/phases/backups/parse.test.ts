import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTimeshiftList, parseTmutilDestinations, parseTmutilLatestBackup, parseWbadminVersions } from "./parse.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("Time Machine readers", () => {
  it("reads destinations by kind, and none", () => {
    expect(parseTmutilDestinations(fixture("darwin-tmutil-destinationinfo-network.txt"))).toEqual([
      { kind: "Network", mounted: true },
    ]);
    expect(parseTmutilDestinations(fixture("darwin-tmutil-destinationinfo-none.txt"))).toEqual([]);
    expect(parseTmutilDestinations("")).toBeNull();
  });

  it("reads the newest backup's local start time from HFS+ and APFS paths", () => {
    expect(parseTmutilLatestBackup(fixture("darwin-tmutil-latestbackup-hfs.txt"))).toEqual({
      at: new Date(2019, 6, 29, 10, 2, 31),
    });
    expect(parseTmutilLatestBackup(fixture("darwin-tmutil-latestbackup-apfs.txt"))).toEqual({
      at: new Date(2026, 7, 1, 0, 51, 34),
    });
  });

  it("tells an unreadable latest backup apart from a missing one", () => {
    expect(parseTmutilLatestBackup(fixture("darwin-tmutil-latestbackup-no-fda.txt"))).toEqual({
      problem: "full_disk_access",
    });
    expect(parseTmutilLatestBackup(fixture("darwin-tmutil-latestbackup-unmounted.txt"))).toEqual({
      problem: "destination_not_mounted",
    });
    expect(parseTmutilLatestBackup("")).toBeNull();
  });
});

describe("wbadmin and timeshift readers", () => {
  it("reads wbadmin version identifiers as UTC, not the local backup time", () => {
    expect(parseWbadminVersions(fixture("win32-wbadmin-get-versions.txt"))).toEqual([new Date("2026-06-30T19:26:00Z")]);
    expect(parseWbadminVersions("Backup time: 6/30/2026 12:26 PM")).toEqual([]);
  });

  it("reads timeshift snapshots, oldest first", () => {
    expect(parseTimeshiftList(fixture("linux-timeshift-list.txt"))).toEqual([new Date(2020, 5, 17, 0, 57, 44)]);
    const twelve = parseTimeshiftList(fixture("linux-timeshift-list-12.txt"))!;
    expect(twelve).toHaveLength(12);
    expect(twelve[11]).toEqual(new Date(2019, 6, 16, 16, 35, 42));
    expect(parseTimeshiftList("Status : OK")).toBeNull();
  });
});
