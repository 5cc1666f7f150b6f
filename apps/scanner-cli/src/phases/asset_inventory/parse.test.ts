import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseRegQuery } from "../shared/reg-query.js";
import {
  classifyEphiRoles,
  parseSystemProfilerApplications,
  parseTabbedPackages,
  parseUninstallEntries,
} from "./parse.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("asset inventory parsers", () => {
  it("reads this Debian machine's dpkg-query list", () => {
    const packages = parseTabbedPackages(fixture("linux-dpkg-query.txt"));
    expect(packages.length).toBeGreaterThan(500);
    expect(packages).toContainEqual({ name: "adduser", version: "3.134" });
    expect(packages.find((p) => p.name === "openssh-server")?.version).toMatch(/^1:9\.2p1/);
  });

  it("reads a Mac's application list from system_profiler, leaving out bundles without a version", () => {
    const apps = parseSystemProfilerApplications(fixture("darwin-system-profiler-applications.txt"));
    expect(apps).toHaveLength(12);
    expect(apps[0]).toEqual({ name: "XProtect", version: "131" });
    expect(apps).toContainEqual({ name: "Google Chrome", version: "111.0.5563.110" });
    expect(apps.map((a) => a.name)).not.toContain("com.apple.ctcategories");
    expect(parseSystemProfilerApplications("")).toEqual([]);
  });

  it("reads Windows programs from the uninstall registry", () => {
    const keys = parseRegQuery(fixture("win32-reg-query-uninstall-wow6432node.txt"));
    expect(keys).toHaveLength(1);
    expect(parseUninstallEntries(keys)).toEqual([{ name: "Check MK Agent 2.1", version: "2.1.0.50010" }]);
    // The same entry marked as a hidden system component is not a program the user installed.
    const hidden = parseRegQuery(
      `${fixture("win32-reg-query-uninstall-wow6432node.txt")}    SystemComponent    REG_DWORD    0x1\n`,
    );
    expect(parseUninstallEntries(hidden)).toEqual([]);
  });

  it("classifies EHR, PACS, interface engines and databases by name", () => {
    const roles = classifyEphiRoles([
      "postgresql-15",
      "orthanc",
      "mirth-connect",
      "OpenEMR",
      "libpq5",
      "postgresql-client-15",
    ]);
    expect(Object.fromEntries(roles)).toEqual({
      database: ["postgresql-15"],
      pacs: ["orthanc"],
      interface_engine: ["mirth-connect"],
      ehr: ["OpenEMR"],
    });
  });
});
