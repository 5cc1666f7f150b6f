import { describe, expect, it } from "vitest";
import { loadResponseFixture } from "../test-support/fixtures.js";
import { cspFrameAncestors, evaluateSecurityHeaders, hstsMaxAge } from "./security-headers-check.js";

const evaluate = (name: string) => {
  const r = loadResponseFixture(name);
  return evaluateSecurityHeaders(new URL(r.url).hostname, r.url, r.headers).map((f) => [f.check_id, f.severity]);
};

describe("evaluateSecurityHeaders", () => {
  it("finds nothing to fix on a hardened portal", () => {
    expect(evaluate("hardened-portal.json")).toEqual([]);
  });

  it("lists every missing header of a default WordPress/nginx site", () => {
    expect(evaluate("nginx-wordpress.json")).toEqual([
      ["app.security_headers.hsts_missing", "medium"],
      ["app.security_headers.csp_missing", "low"],
      ["app.security_headers.frame_protection_missing", "low"],
      ["app.security_headers.content_type_options_missing", "low"],
      ["app.security_headers.referrer_policy_weak", "low"],
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

  it("finds frame-ancestors in a CSP; a wildcard is no protection", () => {
    expect(cspFrameAncestors("default-src 'self'; frame-ancestors 'none'")).toBe("'none'");
    expect(cspFrameAncestors("default-src 'self'")).toBeNull();
    const findings = evaluateSecurityHeaders("c.example", "https://c.example/", {
      "content-security-policy": "frame-ancestors *",
    });
    expect(findings.map((f) => f.check_id)).toContain("app.security_headers.frame_protection_missing");
  });
});
