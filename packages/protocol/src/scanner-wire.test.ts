import { describe, expect, it } from "vitest";
import { FindingInputSchema } from "./finding.js";
import { findingId, findingSubjectPart, isRetryableStatus } from "./scanner-wire.js";

describe("findingId: one rule for the scanner and the server", () => {
  it("lower-cases the subject, drops a URL scheme and collapses disallowed runs to one _", () => {
    expect(findingId("site.hsts.missing", "HTTPS://Portal.Example.org/Log In?x=1")).toBe(
      "site.hsts.missing:portal.example.org/log_in_x_1",
    );
    expect(findingId("disk_encryption.unencrypted_volume", "C:")).toBe("disk_encryption.unencrypted_volume:c:");
    expect(findingId("ports.risky_service", "10.0.0.5:445")).toBe("ports.risky_service:10.0.0.5:445");
    expect(findingId("mfa.none")).toBe("mfa.none");
    expect(findingSubjectPart("Größe  Datei")).toBe("gr_e_datei");
  });

  it("the same subject written two ways gets one id", () => {
    expect(findingId("tls.legacy", "https://EHR.clinic.lan")).toBe(findingId("tls.legacy", "ehr.clinic.lan"));
  });

  it("is always a valid protocol id of at most 200 characters", () => {
    for (const subject of ["x".repeat(500), "💊".repeat(100), "a b\tc\n", "[::1]:443", "user@host"]) {
      const id = findingId("phase.check", subject);
      expect(id.length).toBeLessThanOrEqual(200);
      expect(FindingInputSchema.shape.id.safeParse(id).success, id).toBe(true);
    }
  });
});

describe("isRetryableStatus", () => {
  it("retries timeouts, rate limits and server errors that mean not now; nothing else", () => {
    expect([408, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([200, 201, 400, 401, 403, 404, 409, 413, 501, 505].some(isRetryableStatus)).toBe(false);
  });
});
