import { describe, expect, it } from "vitest";
import { loadResponseFixture } from "../test-support/fixtures.js";
import { evaluateSecurityHeaders, hstsMaxAge } from "./security-headers-check.js";

const evaluate = (name: string) => {
  const r = loadResponseFixture(name);
  return evaluateSecurityHeaders(new URL(r.url).hostname, r.url, r.headers).map((f) => [f.check_id, f.severity]);
};

describe("evaluateSecurityHeaders", () => {
  it("finds nothing to fix on a hardened portal", () => {
    expect(evaluate("hardened-portal.json")).toEqual([]);
  });

  it("lists every missing header of a default WordPress/nginx site (no Referrer-Policy is the safe default)", () => {
    expect(evaluate("nginx-wordpress.json")).toEqual([
      ["app.security_headers.hsts_missing", "medium"],
      ["app.security_headers.csp_missing", "low"],
      ["app.security_headers.frame_protection_missing", "low"],
      ["app.security_headers.content_type_options_missing", "low"],
    ]);
  });

  it("accepts X-Frame-Options alone as frame protection (IIS portal)", () => {
    expect(evaluate("iis-aspnet.json").map(([id]) => id)).not.toContain(
      "app.security_headers.frame_protection_missing",
    );
  });

  it("flags a one-day HSTS and an unsafe-url referrer policy", () => {
    const findings = evaluate("apache-legacy.json");
    expect(findings).toContainEqual(["app.security_headers.hsts_short", "low"]);
    expect(findings).toContainEqual(["app.security_headers.referrer_policy_weak", "low"]);
  });

  it("redacts the page's query string in evidence", () => {
    const [finding] = evaluateSecurityHeaders("clinic.example", "https://clinic.example/login?token=secret", {});
    expect(JSON.stringify(finding?.evidence)).not.toContain("secret");
    expect(finding?.evidence).toMatchObject({ url: "https://clinic.example/login?…" });
  });
});

describe("header parsing", () => {
  it("reads HSTS max-age in its legal spellings", () => {
    expect(hstsMaxAge("max-age=31536000; includeSubDomains")).toBe(31_536_000);
    expect(hstsMaxAge('includeSubDomains; max-age="600"')).toBe(600);
    expect(hstsMaxAge("includeSubDomains")).toBeNull();
    expect(hstsMaxAge(undefined)).toBeNull();
  });

  it("takes a wildcard frame-ancestors for no protection", () => {
    const findings = evaluateSecurityHeaders("c.example", "https://c.example/", {
      "content-security-policy": "frame-ancestors *",
    });
    expect(findings.map((f) => f.check_id)).toContain("app.security_headers.frame_protection_missing");
  });
});

// Headers are judged as the browsers' specifications read them (W3C Referrer Policy, HTML, CSP3), not by a looser
// reading (CHECKS.md, "How records and headers are read").
describe("security headers as browsers read them", () => {
  const ids = (headers: Record<string, string>, html = "") =>
    evaluateSecurityHeaders("c.example", "https://c.example/", headers, html).map((f) => f.check_id);
  const hardened = {
    "strict-transport-security": "max-age=31536000",
    "content-security-policy": "default-src 'self'; frame-ancestors 'self'",
    "x-content-type-options": "nosniff",
  };

  it("does not flag an absent Referrer-Policy: browsers default to strict-origin-when-cross-origin", () => {
    expect(ids(hardened)).toEqual([]);
  });

  it('reads <meta name="referrer">, which overrides the header', () => {
    const leaky = '<html><head><meta name="referrer" content="unsafe-url"></head></html>';
    expect(ids(hardened, leaky)).toEqual(["app.security_headers.referrer_policy_weak"]);
    // The legacy keyword "always" means unsafe-url (HTML § Standard metadata names).
    expect(ids(hardened, '<meta name="Referrer" content="ALWAYS">')).toEqual([
      "app.security_headers.referrer_policy_weak",
    ]);
    const fixed = '<meta name="referrer" content="no-referrer">';
    expect(ids({ ...hardened, "referrer-policy": "unsafe-url" }, fixed)).toEqual([]);
  });

  it("takes the last valid Referrer-Policy token, ignoring unknown ones", () => {
    expect(ids({ ...hardened, "referrer-policy": "unsafe-url, some-future-policy" })).toEqual([
      "app.security_headers.referrer_policy_weak",
    ]);
    expect(ids({ ...hardened, "referrer-policy": "unsafe-url, no-referrer" })).toEqual([]);
  });

  it("does not take frame-ancestors https: (or any http/https scheme source or * host) for framing protection", () => {
    for (const ancestors of ["https:", "http:", "'self' https:", "https://*", "*:443"]) {
      const headers = { ...hardened, "content-security-policy": `frame-ancestors ${ancestors}` };
      expect([ancestors, ids(headers)]).toEqual([ancestors, ["app.security_headers.frame_protection_missing"]]);
    }
    for (const ancestors of ["'none'", "'self'", "https://portal.example", "*.c.example", ""]) {
      const headers = { ...hardened, "content-security-policy": `frame-ancestors ${ancestors}` };
      expect([ancestors, ids(headers)]).toEqual([ancestors, []]);
    }
  });

  it("ignores X-Frame-Options when a CSP has frame-ancestors (CSP3, HTML's X-Frame-Options check)", () => {
    const headers = { ...hardened, "content-security-policy": "frame-ancestors *", "x-frame-options": "DENY" };
    expect(ids(headers)).toEqual(["app.security_headers.frame_protection_missing"]);
  });

  it("does not take a whitespace-only or directive-less CSP for a policy", () => {
    for (const csp of ["   ", "\t", " ; ; ", "'self'"]) {
      expect([csp, ids({ ...hardened, "content-security-policy": csp, "x-frame-options": "DENY" })]).toEqual([
        csp,
        ["app.security_headers.csp_missing"],
      ]);
    }
  });

  it("reads X-Content-Type-Options as a header list, its first value deciding (Fetch: determine nosniff)", () => {
    expect(ids({ ...hardened, "x-content-type-options": "nosniff, nosniff" })).toEqual([]);
    expect(ids({ ...hardened, "x-content-type-options": "NOSNIFF" })).toEqual([]);
    expect(ids({ ...hardened, "x-content-type-options": ", nosniff" })).toEqual([
      "app.security_headers.content_type_options_missing",
    ]);
  });
});
