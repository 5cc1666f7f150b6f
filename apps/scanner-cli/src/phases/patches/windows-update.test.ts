import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseRegQuery } from "../shared/reg-query.js";
import { parseWindowsUpdatePolicy, parseWmicQfe } from "./windows-update.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("Windows update readers", () => {
  it("reads installed updates from wmic qfe, dates month first", () => {
    const hotfixes = parseWmicQfe(fixture("win32-wmic-qfe.txt"));
    expect(hotfixes).toHaveLength(6);
    expect(hotfixes[0]).toEqual({
      id: "KB5050576",
      description: "Update",
      installedOn: new Date("2025-03-04T00:00:00Z"),
    });
    expect(hotfixes[5]).toEqual({
      id: "KB5053606",
      description: "Security Update",
      installedOn: new Date("2025-03-24T00:00:00Z"),
    });
    expect(parseWmicQfe("No Instance(s) Available.")).toEqual([]);
  });

  it("reads the automatic-update policy of a WSUS-managed machine", () => {
    expect(parseWindowsUpdatePolicy(parseRegQuery(fixture("win32-reg-query-wu-au.txt")))).toEqual({
      disabled: false,
      auOptions: 3,
      wsus: true,
    });
    expect(parseWindowsUpdatePolicy([])).toBeNull();
  });
});
