import { describe, expect, it } from "vitest";
import { evaluateExposedServices, type PortProbe, RISKY_SERVICES } from "./exposed-services-check.js";
import { evaluateHttpRedirect } from "./http-redirect-check.js";
import { evaluateHttps } from "./https-check.js";
import type { PageFetch } from "./page-fetch.js";

const page = (url: string, status = 200): Extract<PageFetch, { ok: true }> => ({
  ok: true,
  chain: [{ url, status }],
  response: { url, address: "203.0.113.7", status, headers: {}, set_cookies: [], body: "", truncated: false },
});
const failed = (code: string, status: "unreachable" | "timeout" = "unreachable"): PageFetch => ({
  ok: false,
  status,
  code,
  detail: code,
  url: "https://clinic.example/",
  chain: [],
});

describe("evaluateHttps", () => {
  it("finds nothing when HTTPS serves the site", () => {
    expect(evaluateHttps("clinic.example", page("https://clinic.example/"), failed("connection_refused"))).toEqual([]);
  });

  it("reports a site served only over plain HTTP", () => {
    const findings = evaluateHttps("clinic.example", failed("connection_refused"), page("http://clinic.example/"));
    expect(findings?.map((f) => [f.check_id, f.severity])).toEqual([["app.https.not_offered", "high"]]);
  });

  it("reports HTTPS that redirects to HTTP", () => {
    const downgraded: PageFetch = {
      ...page("http://clinic.example/"),
      chain: [
        { url: "https://clinic.example/", status: 301 },
        { url: "http://clinic.example/", status: 200 },
      ],
    };
    expect(evaluateHttps("clinic.example", downgraded, page("http://clinic.example/"))?.map((f) => f.check_id)).toEqual(
      ["app.https.downgrade"],
    );
  });

  it("says nothing (null) when neither HTTPS nor HTTP answers", () => {
    expect(evaluateHttps("clinic.example", failed("timeout", "timeout"), failed("timeout", "timeout"))).toBeNull();
  });
});

describe("evaluateHttpRedirect", () => {
  it("accepts a redirect chain that ends on HTTPS", () => {
    const redirected: Extract<PageFetch, { ok: true }> = {
      ...page("https://www.clinic.example/"),
      chain: [
        { url: "http://clinic.example/", status: 301 },
        { url: "https://www.clinic.example/", status: 200 },
      ],
    };
    expect(evaluateHttpRedirect("clinic.example", redirected)).toEqual([]);
  });

  it("flags a page served over plain HTTP", () => {
    expect(
      evaluateHttpRedirect("clinic.example", page("http://clinic.example/")).map((f) => [f.check_id, f.severity]),
    ).toEqual([["app.http_redirect.missing", "medium"]]);
  });
});

describe("evaluateExposedServices", () => {
  const probe = (port: number, state: PortProbe["state"] = "open"): PortProbe => ({
    address: "203.0.113.7",
    port,
    state,
  });

  it("caps the grade for remote access services and not for databases", () => {
    const findings = evaluateExposedServices("clinic.example", [
      probe(3389),
      probe(445),
      probe(3306),
      probe(22),
      probe(21, "closed"),
    ]);
    expect(findings.map((f) => [f.check_id, f.severity, f.grade_cap])).toEqual([
      ["app.exposed_services.rdp", "critical", "remote_access_exposed"],
      ["app.exposed_services.smb", "critical", "remote_access_exposed"],
      ["app.exposed_services.mysql", "high", undefined],
    ]);
    expect(findings[0]?.id).toBe("app.exposed_services.rdp:clinic.example:3389");
  });

  it("ignores filtered and closed ports", () => {
    expect(
      evaluateExposedServices(
        "clinic.example",
        RISKY_SERVICES.map((s) => probe(s.port, "filtered")),
      ),
    ).toEqual([]);
  });

  it("covers the ports the brief names: RDP, SMB, telnet, FTP and the common databases", () => {
    expect(RISKY_SERVICES.map((s) => s.port).sort((a, b) => a - b)).toEqual([
      21, 23, 445, 1433, 1521, 3306, 3389, 5432, 5900, 6379, 27017,
    ]);
  });
});
