import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { classifyEphiRoles, parseTabbedPackages } from "./parse.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("asset inventory parsers", () => {
  it("reads this Debian machine's dpkg-query list", () => {
    const packages = parseTabbedPackages(fixture("linux-dpkg-query.txt"));
    expect(packages.length).toBeGreaterThan(500);
    expect(packages).toContainEqual({ name: "adduser", version: "3.134" });
    expect(packages.find((p) => p.name === "openssh-server")?.version).toMatch(/^1:9\.2p1/);
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
