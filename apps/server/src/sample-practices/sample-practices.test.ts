import { isValidNpi, scorePractice } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkFactsOf,
  createExternalScanIO,
  type ExternalScanResult,
  externalScoringSubject,
  runExternalScan,
} from "../external-scan/index.js";
import { createNodeTcpConnect } from "../external-scan/io/tcp-connect.js";
import { RISKY_SERVICES } from "../external-scan/site/exposed-services-check.js";
import { SamplePracticesError } from "./errors.js";
import { type SamplePractices, startSamplePractices } from "./start.js";

// Its own loopback range, so that other test files (and the demo on the default 127.0.10) can run beside it.
const PREFIX = "127.0.11";

/**
 * Risky ports already open on an address no sample practice uses: a local service bound to all addresses (a CI
 * database container, say) answers on every 127.x address, and its findings are the machine's, not the sample's.
 */
async function portsOpenOnEveryLoopbackAddress(): Promise<Set<number>> {
  const tcp = createNodeTcpConnect({ timeoutMs: 500 });
  const signal = new AbortController().signal;
  const open = await Promise.all(
    RISKY_SERVICES.map(async (s) =>
      (await tcp.connect({ address: `${PREFIX}.250`, port: s.port, signal })).state === "open" ? s.port : null,
    ),
  );
  return new Set(open.filter((p): p is number => p !== null));
}

describe("sample practices scanned by the external scan", () => {
  let samples: SamplePractices;
  let machinePorts: Set<number>;
  const results = new Map<string, ExternalScanResult>();

  beforeAll(async () => {
    machinePorts = await portsOpenOnEveryLoopbackAddress();
    samples = await startSamplePractices({ loopbackPrefix: PREFIX });
    const io = createExternalScanIO({ dnsServers: [samples.dns], trustedCaPem: [samples.caPem] });
    for (const practice of samples.practices) {
      const result = await runExternalScan({ domain: practice.domain, website: practice.website }, io, {
        allowPrivateTargets: true,
        timeoutMs: 20_000,
      });
      const machineFindings = (id: string) =>
        RISKY_SERVICES.some((s) => machinePorts.has(s.port) && id === `app.exposed_services.${s.service}`);
      results.set(practice.npi, { ...result, findings: result.findings.filter((f) => !machineFindings(f.check_id)) });
    }
  }, 120_000);
  afterAll(() => samples?.stop());

  it("starts at least five practices with valid NPIs, .test domains and their own loopback addresses", () => {
    expect(samples.practices.length).toBeGreaterThanOrEqual(5);
    for (const p of samples.practices) {
      expect(isValidNpi(p.npi)).toBe(true);
      expect(p.domain.endsWith(".test")).toBe(true);
      expect(new URL(p.website).hostname.endsWith(".test")).toBe(true);
      expect(p.address.startsWith(`${PREFIX}.`)).toBe(true);
    }
    expect(new Set(samples.practices.map((p) => p.address)).size).toBe(samples.practices.length);
    expect(new Set(samples.practices.map((p) => p.npi)).size).toBe(samples.practices.length);
  });

  it("assesses all three external categories of every practice", () => {
    for (const p of samples.practices) {
      const result = results.get(p.npi)!;
      expect([p.name, result.categories]).toEqual([
        p.name,
        ["email_security", "application_security", "privacy_compliance"],
      ]);
      expect([p.name, result.checks.filter((c) => c.status !== "ok")]).toEqual([p.name, []]);
    }
  });

  it("grades each practice as expected and finds its known weaknesses", () => {
    for (const p of samples.practices) {
      const result = results.get(p.npi)!;
      const score = scorePractice([externalScoringSubject(result, p.npi)]);
      expect([p.name, p.expected.grades.includes(score!.grade)]).toEqual([p.name, true]);
      const found = new Set(result.findings.map((f) => f.check_id));
      expect([p.name, p.expected.findings.filter((id) => !found.has(id))]).toEqual([p.name, []]);
    }
  });

  it("gives the well-run practice an A with nothing above info", () => {
    const lakeside = samples.practices.find((p) => p.expected.grades.join() === "A")!;
    const result = results.get(lakeside.npi)!;
    expect(result.findings.filter((f) => f.severity !== "info")).toEqual([]);
    expect(scorePractice([externalScoringSubject(result)])?.compliance_score).toBe(100);
  });

  it("enumerates each practice's suites per version and judges them against SP 800-52r2", () => {
    const facts = (name: string) => {
      const p = samples.practices.find((s) => s.name.startsWith(name))!;
      return checkFactsOf(results.get(p.npi)!, "app.tls_ciphers") as unknown as {
        versions: Record<string, { accepted: string[]; sp800_52r2: string; complete: boolean }>;
        not_testable_by_this_client: string[];
      };
    };
    // The well-run practice: NIST's own list, nothing else, and every version enumerated to the end.
    expect(facts("Lakeside").versions).toEqual({
      "TLS 1.2": expect.objectContaining({
        accepted: ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"],
        sp800_52r2: "conforms",
        complete: true,
      }),
      "TLS 1.3": expect.objectContaining({
        accepted: ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"],
        sp800_52r2: "conforms",
        complete: true,
      }),
    });
    // nginx's default list: static RSA and CBC beside ECDHE, in TLS 1.2.
    const maple = facts("Maple").versions["TLS 1.2"]!;
    expect(maple.sp800_52r2).toBe("does_not_conform");
    expect(maple.accepted).toEqual(
      expect.arrayContaining(["TLS_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_256_GCM_SHA384"]),
    );
    // The legacy server: TLS 1.0 and 1.1 each with their own list.
    expect(Object.keys(facts("Riverside").versions)).toEqual(["TLS 1.0", "TLS 1.1", "TLS 1.2"]);
    expect(facts("Riverside").versions["TLS 1.0"]!.accepted).toContain("TLS_RSA_WITH_AES_128_CBC_SHA");
    // What the client cannot offer is named, never passed as "not accepted".
    expect(facts("Lakeside").not_testable_by_this_client).toContain("TLS_RSA_WITH_3DES_EDE_CBC_SHA");
  });

  it("reads each certificate's signature algorithm and revocation pointers", () => {
    const cert = (name: string) => {
      const p = samples.practices.find((s) => s.name.startsWith(name))!;
      return checkFactsOf(results.get(p.npi)!, "app.certificate");
    };
    expect(cert("Lakeside")).toMatchObject({
      signature_algorithm: "sha256WithRSAEncryption",
      ocsp_urls: ["http://ocsp.sample-ca.test"],
      crl_urls: ["http://crl.sample-ca.test/sample-ca.crl"],
    });
    expect(cert("Riverside")).toMatchObject({ signature_algorithm: "sha1WithRSAEncryption" });
    expect(cert("Harbor")).toMatchObject({ ocsp_urls: [], crl_urls: [] });
  });

  it("fails the poor practice on the remote access cap, with the tracker and TLS caps applied too", () => {
    const poor = samples.practices.find((p) => p.expected.findings.includes("app.exposed_services.rdp"))!;
    const score = scorePractice([externalScoringSubject(results.get(poor.npi)!)])!;
    expect(score.grade).toBe("F");
    expect(score.caps_applied.map((c) => c.id)).toEqual(
      expect.arrayContaining(["remote_access_exposed", "phi_tracker_on_authenticated_page", "legacy_tls"]),
    );
  });

  it("keeps facts plain JSON and never records cookie values", () => {
    for (const result of results.values()) {
      expect(JSON.parse(JSON.stringify(result.facts))).toEqual(result.facts);
      const text = JSON.stringify(result);
      // The sample sites' session cookie values (practices/lakeside.ts, riverside.ts).
      expect(text).not.toContain("7c1f0e");
      expect(text).not.toContain("3kq1x0");
    }
  });

  it("counts the scan's connections to each practice's listeners", () => {
    const poor = samples.practices.find((p) => p.expected.findings.includes("app.exposed_services.rdp"))!;
    expect(samples.connectionCounts(poor.npi).get(3389)).toBeGreaterThan(0);
    expect(samples.connectionCounts(poor.npi).get(443)).toBeGreaterThan(0);
  });

  it("refuses a second set on the same addresses with a clear error", async () => {
    const error = await startSamplePractices({ loopbackPrefix: PREFIX }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SamplePracticesError);
    expect((error as SamplePracticesError).code).toBe("address_in_use");
  });

  it("rejects a prefix outside loopback", async () => {
    const error = await startSamplePractices({ loopbackPrefix: "10.0.0" }).catch((e: unknown) => e);
    expect((error as SamplePracticesError).code).toBe("invalid_options");
  });
});
