import { describe, expect, it } from "vitest";
import { loadResponseFixture } from "../test-support/fixtures.js";
import { disclosedSoftware, evaluateServerDisclosure } from "./server-disclosure-check.js";

const NOW = new Date("2026-06-01T00:00:00Z");

describe("disclosedSoftware", () => {
  it("reads every product/version in a full Apache banner", () => {
    const r = loadResponseFixture("apache-legacy.json");
    expect(disclosedSoftware(r.headers).map((s) => `${s.product} ${s.version}`)).toEqual([
      "Apache 2.2.15",
      "OpenSSL 1.0.1e",
      "PHP 5.6.40",
      "PHP 5.6.40",
    ]);
  });

  it("keeps what a banner says of the build: a distribution's comment or a packaging revision", () => {
    const r = loadResponseFixture("apache-legacy.json");
    expect(disclosedSoftware(r.headers).map((s) => [s.product, s.version, s.build])).toEqual([
      ["Apache", "2.2.15", "(CentOS)"],
      ["OpenSSL", "1.0.1e", "-fips"],
      ["PHP", "5.6.40", null],
      ["PHP", "5.6.40", null],
    ]);
    const nginx = loadResponseFixture("nginx-wordpress.json");
    expect(disclosedSoftware(nginx.headers)[0]).toEqual({
      header: "server",
      product: "nginx",
      version: "1.18.0",
      build: "(Ubuntu)",
    });
    expect(disclosedSoftware({ "x-powered-by": "PHP/7.4.3-4ubuntu2.18" })[0]?.build).toBe("-4ubuntu2.18");
    expect(disclosedSoftware({ server: "Apache/2.4.41 (Win64) OpenSSL/1.1.1c" }).map((s) => s.build)).toEqual([
      "(Win64)",
      null,
    ]);
  });

  it("reads ASP.NET's version headers", () => {
    const r = loadResponseFixture("iis-aspnet.json");
    expect(disclosedSoftware(r.headers).map((s) => `${s.header}: ${s.product} ${s.version}`)).toEqual([
      "server: Microsoft-IIS 10.0",
      "x-aspnet-version: ASP.NET 4.0.30319",
      "x-aspnetmvc-version: ASP.NET MVC 5.2",
    ]);
  });

  it("ignores banners without versions", () => {
    expect(disclosedSoftware({ server: "nginx", "x-powered-by": "ASP.NET" })).toEqual([]);
  });
});

describe("evaluateServerDisclosure", () => {
  const evaluate = (name: string, now = NOW) => {
    const r = loadResponseFixture(name);
    return evaluateServerDisclosure(new URL(r.url).hostname, r.url, r.headers, now);
  };

  it("flags disclosed versions (low) and end-of-life software (high, capped)", () => {
    const findings = evaluate("apache-legacy.json");
    expect(findings.map((f) => [f.check_id, f.severity, f.grade_cap])).toEqual([
      ["app.server_disclosure.version", "low", undefined],
      ["app.server_disclosure.end_of_life", "high", "end_of_life_system"],
    ]);
    const software = (findings[1]?.evidence?.software ?? []) as { product: string; eol: string }[];
    const eol = software.map((s) => `${s.product} ${s.eol}`);
    expect(eol).toEqual(["Apache 2017-07-11", "OpenSSL 2019-12-31", "PHP 2018-12-31", "PHP 2018-12-31"]);
  });

  it("judges end of life by the scan's date", () => {
    const headers = { "x-powered-by": "PHP/8.2.12" };
    const before = evaluateServerDisclosure(
      "c.example",
      "https://c.example/",
      headers,
      new Date("2026-12-30T00:00:00Z"),
    );
    const after = evaluateServerDisclosure(
      "c.example",
      "https://c.example/",
      headers,
      new Date("2027-01-01T00:00:00Z"),
    );
    expect(before.map((f) => f.check_id)).toEqual(["app.server_disclosure.version"]);
    expect(after.map((f) => f.check_id)).toEqual([
      "app.server_disclosure.version",
      "app.server_disclosure.end_of_life",
    ]);
  });

  it("does not put a supported IIS or nginx on the end-of-life list", () => {
    expect(evaluate("iis-aspnet.json").map((f) => f.check_id)).toEqual(["app.server_disclosure.version"]);
    expect(evaluate("nginx-wordpress.json").map((f) => f.check_id)).toEqual([
      "app.server_disclosure.version",
      "app.server_disclosure.end_of_life", // PHP 7.4
    ]);
  });

  it("finds nothing when no version is disclosed", () => {
    expect(evaluate("hardened-portal.json")).toEqual([]);
  });
});
