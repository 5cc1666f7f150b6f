import { FindingInputSchema, scorePractice } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { EXTERNAL_CHECKS } from "./checks.js";
import { isExternalScanError } from "./errors.js";
import type { ExternalScanIO, HttpOutcome } from "./io/types.js";
import { runExternalScan } from "./run-external-scan.js";
import { externalScoringSubject } from "./scoring-subject.js";
import { fixtureDnsIO, loadDnsFixture } from "./test-support/dns-fixture.js";

const never = <T>() => new Promise<T>(() => {});

/** IO whose every operation never settles and ignores its signal: the worst case for the budget. */
const hangingIO: ExternalScanIO = {
  dns: { txt: never, mx: never, addresses: never },
  tls: { handshake: never, offerSuites: never, canOffer: () => true },
  http: { get: never },
  tcp: { connect: never },
};

/**
 * The Google Workspace practice's DNS, a website at a documentation address (203.0.113.0/24, so scans of it
 * need allowPrivateTargets; the fake IO sends nothing anywhere), and a site that answers every page the same.
 */
function fakePracticeIO(page: HttpOutcome): ExternalScanIO {
  const fixture = loadDnsFixture("google-workspace.json");
  const dns = fixtureDnsIO({ ...fixture, addresses: { "www.brightside-clinic.example": ["203.0.113.50"] } });
  return {
    dns,
    tls: {
      handshake: async () => ({ ok: false, code: "handshake_failed" }),
      offerSuites: async () => ({ ok: false, code: "handshake_failed" }),
      canOffer: () => true,
    },
    http: { get: async () => page },
    tcp: { connect: async () => ({ state: "closed" }) },
  };
}

describe("runExternalScan", () => {
  it("completes within its budget when no IO ever answers, reporting every check as timed out", async () => {
    const started = performance.now();
    const result = await runExternalScan({ domain: "clinic.example", website: null }, hangingIO, {
      allowPrivateTargets: false,
      timeoutMs: 300,
    });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(1_000);
    expect(result.checks.map((c) => c.status)).toEqual(EXTERNAL_CHECKS.map(() => "timeout"));
    expect(result.categories).toEqual([]);
    // Every check says it was not assessed, as information that deducts nothing.
    expect(result.findings).toHaveLength(EXTERNAL_CHECKS.length);
    expect(result.findings.every((f) => f.severity === "info" && f.check_id.endsWith(".timeout"))).toBe(true);
    expect(scorePractice([externalScoringSubject(result)])).toBeNull();
  });

  it("grades what it could assess and names what it could not", async () => {
    const page: HttpOutcome = {
      ok: true,
      status: 200,
      headers: { "content-type": "text/html" },
      set_cookies: [],
      body: "<h1>Brightside</h1>",
      truncated: false,
    };
    const result = await runExternalScan(
      { domain: "brightside-clinic.example", website: "https://www.brightside-clinic.example/" },
      fakePracticeIO(page),
      { allowPrivateTargets: true, timeoutMs: 5_000, now: () => new Date("2025-02-01T00:00:00Z") },
    );
    const status = Object.fromEntries(result.checks.map((c) => [c.id, c.status]));
    expect(status["email.spf"]).toBe("ok");
    expect(status["privacy.trackers"]).toBe("ok");
    // Every handshake was refused: no certificate to judge, the check could not run.
    expect(status["app.certificate"]).toBe("unreachable");
    expect(result.categories).toEqual(["email_security", "application_security", "privacy_compliance"]);
    const ids = result.findings.map((f) => f.check_id);
    expect(ids).toContain("email.spf.softfail_all");
    expect(ids).toContain("app.certificate.unreachable");
    expect(ids).toContain("privacy.notice.missing");
    expect(result.started_at).toBe("2025-02-01T00:00:00.000Z");
  });

  it("produces schema-valid findings with unique ids, all from the external source", async () => {
    const result = await runExternalScan({ domain: "clinic.example", website: null }, hangingIO, {
      allowPrivateTargets: false,
      timeoutMs: 100,
    });
    for (const f of result.findings) expect(FindingInputSchema.parse(f).source).toBe("external");
    expect(new Set(result.findings.map((f) => f.id)).size).toBe(result.findings.length);
  });

  it("turns an IO that throws into a check error, not a failed scan", async () => {
    const io: ExternalScanIO = {
      ...fakePracticeIO({ ok: false, code: "timeout" }),
      tcp: {
        connect: () => {
          throw new Error("socket table full");
        },
      },
    };
    const result = await runExternalScan(
      { domain: "brightside-clinic.example", website: "https://www.brightside-clinic.example/" },
      io,
      {
        allowPrivateTargets: true,
        timeoutMs: 5_000,
      },
    );
    expect(result.checks.find((c) => c.id === "app.exposed_services")).toMatchObject({
      status: "error",
      detail: "Error: socket table full",
    });
    expect(result.findings.map((f) => f.check_id)).toContain("app.exposed_services.error");
    expect(result.checks.find((c) => c.id === "email.dmarc")?.status).toBe("ok");
  });

  it("rejects with scan_cancelled when the caller aborts", async () => {
    const controller = new AbortController();
    const pending = runExternalScan({ domain: "clinic.example", website: null }, hangingIO, {
      allowPrivateTargets: false,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    const error = await pending.catch((e: unknown) => e);
    expect(isExternalScanError(error) && error.code).toBe("scan_cancelled");
  });

  it("rejects an unusable target with invalid_target before any IO", async () => {
    const error = await runExternalScan({ domain: "not a domain", website: null }, hangingIO, {
      allowPrivateTargets: false,
    }).catch((e: unknown) => e);
    expect(isExternalScanError(error) && error.code).toBe("invalid_target");
  });
});

describe("externalScoringSubject", () => {
  it("leaves out the not-assessed findings of categories that have no data", async () => {
    const result = await runExternalScan({ domain: "clinic.example", website: null }, hangingIO, {
      allowPrivateTargets: false,
      timeoutMs: 50,
    });
    const subject = externalScoringSubject(result);
    expect(subject).toEqual({ source: "external", subject: "clinic.example", categories: [], findings: [] });
  });
});
