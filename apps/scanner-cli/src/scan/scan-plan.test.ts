import { describe, expect, it } from "vitest";
import { ephiPathsOf, scanPlanNotices } from "./scan-plan.js";

describe("scan plan", () => {
  it("reads --ephi-paths as absolute paths from the working directory", () => {
    expect(ephiPathsOf(" shares/ehr , /srv/scans,,", "/home/it")).toEqual(["/home/it/shares/ehr", "/srv/scans"]);
    expect(ephiPathsOf(undefined, "/home/it")).toEqual([]);
  });

  it("says which phases were added, what auto covers and which --ephi-paths do not exist", () => {
    const scope = { mode: "auto" as const, hosts: [], given: ["192.168.1.0/24"] };
    const base = { added: ["asset_inventory"], scope, missingEphiPaths: ["/srv/typo"], quiet: false, json: false };
    expect(scanPlanNotices(base)).toEqual([
      "also running asset_inventory (needed by the phases you chose)",
      "--targets auto: scanning this machine's subnets: 192.168.1.0/24",
      "warning: --ephi-paths /srv/typo does not exist: it is not scanned (check the spelling)",
    ]);
    // A missing path is said even under --quiet and --json: it changes what the scan means.
    expect(scanPlanNotices({ ...base, quiet: true, json: true })).toEqual([
      "warning: --ephi-paths /srv/typo does not exist: it is not scanned (check the spelling)",
    ]);
    expect(scanPlanNotices({ ...base, json: true })).toHaveLength(2);
  });
});
