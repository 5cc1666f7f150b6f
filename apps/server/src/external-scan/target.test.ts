import { describe, expect, it } from "vitest";
import { isExternalScanError } from "./errors.js";
import { isDomainName, parseScanTarget } from "./target.js";

describe("parseScanTarget", () => {
  it("normalizes the domain and keeps the website's host and port", () => {
    expect(
      parseScanTarget({ domain: " Clinic.Example. ", website: "https://www.clinic.example:8443/home#top" }),
    ).toEqual({
      domain: "clinic.example",
      websiteUrl: "https://www.clinic.example:8443/home",
      siteHost: "www.clinic.example",
      httpsPort: 8443,
      httpPort: 80,
      configuredWebsite: "https://www.clinic.example:8443/home#top",
    });
  });

  it("uses the domain's own site when no website is known", () => {
    expect(parseScanTarget({ domain: "clinic.example", website: null })).toMatchObject({
      websiteUrl: "https://clinic.example/",
      siteHost: "clinic.example",
      configuredWebsite: null,
    });
  });

  it("checks an http:// website over HTTPS on 443 and keeps its HTTP port", () => {
    expect(parseScanTarget({ domain: "clinic.example", website: "http://clinic.example:8080/" })).toMatchObject({
      websiteUrl: "https://clinic.example/",
      httpsPort: 443,
      httpPort: 8080,
    });
  });

  it.each([
    [{ domain: "localhost", website: null }],
    [{ domain: "clinic.example", website: "ftp://clinic.example/" }],
    [{ domain: "clinic.example", website: "https://user:pass@clinic.example/" }],
    [{ domain: "-bad-.example", website: null }],
    [{ domain: "192.0.2.1", website: null }],
  ])("rejects %j with invalid_target", (input) => {
    let error: unknown;
    try {
      parseScanTarget(input);
    } catch (e) {
      error = e;
    }
    expect(isExternalScanError(error) && error.code).toBe("invalid_target");
  });

  it("knows a domain name when it sees one", () => {
    expect(isDomainName("xn--bcher-kva.example")).toBe(true);
    expect(isDomainName("a".repeat(64) + ".example")).toBe(false);
  });
});
