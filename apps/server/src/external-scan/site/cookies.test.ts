import { describe, expect, it } from "vitest";
import { loadResponseFixture } from "../test-support/fixtures.js";
import { evaluateCookies, isSessionCookie, parseSetCookie } from "./cookies-check.js";

const evaluate = (name: string) => {
  const r = loadResponseFixture(name);
  return evaluateCookies(new URL(r.url).hostname, [r]);
};

describe("parseSetCookie", () => {
  it("reads the flags and never the value", () => {
    const flags = parseSetCookie("__Host-MyChartSession=f00dfeed; Path=/; Secure; HttpOnly; SameSite=Strict");
    expect(flags).toEqual({ name: "__Host-MyChartSession", secure: true, httpOnly: true, sameSite: "strict" });
    expect(JSON.stringify(flags)).not.toContain("f00dfeed");
    expect(parseSetCookie("no-equals-sign")).toBeNull();
  });
});

// A SameSite attribute whose value is not Strict, Lax or None is not a SameSite setting (RFC 6265bis §5.6.7): browsers
// apply their default, as with no attribute (CHECKS.md, "How records and headers are read").
describe("SameSite values browsers ignore", () => {
  it.each(["SameSite=True", "SameSite=", "SameSite", "SameSite=example.com", "SameSite=Lax; SameSite=garbage"])(
    "treats %s as no SameSite attribute",
    (attribute) => {
      expect(parseSetCookie(`sid=1; Secure; HttpOnly; ${attribute}`)?.sameSite).toBeNull();
      const findings = evaluateCookies("c.example", [
        { url: "https://c.example/", set_cookies: [`sid=1; Secure; HttpOnly; ${attribute}`] },
      ]);
      expect(findings.map((f) => f.check_id)).toEqual(["app.cookies.missing_samesite"]);
    },
  );

  it("reads Strict, Lax and None in any case, the last attribute winning", () => {
    expect(parseSetCookie("a=1; SameSite=sTrIcT")?.sameSite).toBe("strict");
    expect(parseSetCookie("a=1; samesite=NONE")?.sameSite).toBe("none");
    expect(parseSetCookie("a=1; SameSite=garbage; SameSite=Lax")?.sameSite).toBe("lax");
  });

  it("ignores a Set-Cookie whose name is empty (RFC 6265 §5.2)", () => {
    expect(parseSetCookie("=abc; Secure")).toBeNull();
    expect(parseSetCookie(" =abc")).toBeNull();
  });
});

describe("isSessionCookie", () => {
  it.each(["PHPSESSID", "ASP.NET_SessionId", ".ASPXAUTH", "JSESSIONID", "connect.sid", "auth_token", "sid"])(
    "treats %s as a session cookie",
    (name) => expect(isSessionCookie(name)).toBe(true),
  );
  it.each(["site_prefs", "MyChartLocale", "__RequestVerificationToken", "csrftoken", "_ga"])(
    "does not treat %s as one",
    (name) => expect(isSessionCookie(name)).toBe(false),
  );
});

describe("evaluateCookies", () => {
  it("finds nothing on a hardened portal", () => {
    expect(evaluate("hardened-portal.json")).toEqual([]);
  });

  it("names the cookies that lack each flag on a default WordPress site", () => {
    const findings = evaluate("nginx-wordpress.json");
    expect(findings.map((f) => [f.check_id, f.severity])).toEqual([
      ["app.cookies.missing_secure", "medium"],
      ["app.cookies.missing_httponly", "low"],
      ["app.cookies.missing_samesite", "low"],
    ]);
    expect(findings[0]?.evidence).toEqual({
      cookies: [{ name: "PHPSESSID", set_by: "https://www.cedarpoint-clinic.example/" }],
    });
  });

  it("flags the forms-authentication cookie IIS sets without HttpOnly or Secure", () => {
    const findings = evaluate("iis-aspnet.json");
    const names = (id: string) =>
      (findings.find((f) => f.check_id === id)?.evidence?.cookies as { name: string }[] | undefined)?.map(
        (c) => c.name,
      );
    expect(names("app.cookies.missing_httponly")).toEqual([".ASPXAUTH"]);
    expect(names("app.cookies.missing_secure")).toEqual([
      "ASP.NET_SessionId",
      "__RequestVerificationToken",
      ".ASPXAUTH",
    ]);
  });
});
