import { describe, expect, it } from "vitest";
import type { ExternalScanResult } from "../run-external-scan.js";
import { readFixture } from "./fixtures.js";
import { compareWithTestssl, readTestssl, TestsslJsonSchema } from "./testssl-agreement.js";

const capture = (name: string) =>
  TestsslJsonSchema.parse((JSON.parse(readFixture(`testssl/${name}`)) as { entries: unknown }).entries);

/** A scan result carrying only what the mapping reads. */
function hcsResult(o: {
  offered: string[];
  suites: Record<string, string[]>;
  findings: string[];
  notTestable?: string[];
}): ExternalScanResult {
  return {
    target: { domain: "x.test", website: "https://www.x.test/" },
    started_at: "2026-11-24T00:00:00.000Z",
    duration_ms: 1,
    categories: [],
    checks: [],
    findings: o.findings.map((check_id) => ({ check_id }) as ExternalScanResult["findings"][number]),
    facts: {
      checks: {
        "app.tls_versions": { offered: o.offered },
        "app.tls_ciphers": {
          versions: Object.fromEntries(Object.entries(o.suites).map(([v, accepted]) => [v, { accepted }])),
          not_testable_by_this_client: o.notTestable ?? [],
        },
      },
    },
  };
}

describe("reading testssl.sh 3.0's JSON (captured from the sample practices)", () => {
  it("reads protocols, per-version suites and the cipher, signature and revocation verdicts", () => {
    const riverside = readTestssl(capture("riverside.json"));
    expect(riverside.protocols).toEqual({ "TLS 1.0": true, "TLS 1.1": true, "TLS 1.2": true, "TLS 1.3": false });
    expect(riverside.suites["TLS 1.0"]).toEqual([
      "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
      "TLS_RSA_WITH_AES_256_CBC_SHA",
      "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
      "TLS_RSA_WITH_AES_128_CBC_SHA",
    ]);
    expect(riverside).toMatchObject({
      noForwardSecrecy: true,
      cbc: true,
      insecure: false,
      weakSignature: true,
      noRevocation: false,
    });
    const harbor = readTestssl(capture("harbor.json"));
    expect(harbor).toMatchObject({ weakSignature: false, noRevocation: true });
    expect(harbor.suites["TLS 1.3"]).toHaveLength(3);
  });

  it("agrees only when every item matches, and names what one side missed", () => {
    const entries = capture("riverside.json");
    const theirs = readTestssl(entries);
    const same = hcsResult({
      offered: ["TLS 1.0", "TLS 1.1", "TLS 1.2"],
      suites: theirs.suites,
      findings: ["app.tls_ciphers.no_forward_secrecy", "app.tls_ciphers.cbc_mode", "app.certificate.weak_signature"],
    });
    expect(compareWithTestssl(same, entries).filter((r) => !r.agree)).toEqual([]);

    const missedOne = hcsResult({
      offered: ["TLS 1.0", "TLS 1.1", "TLS 1.2"],
      suites: { ...theirs.suites, "TLS 1.0": theirs.suites["TLS 1.0"]!.slice(1) },
      findings: ["app.tls_ciphers.no_forward_secrecy", "app.tls_ciphers.cbc_mode"],
    });
    const disagreements = compareWithTestssl(missedOne, entries).filter((r) => !r.agree);
    expect(disagreements.map((r) => r.item)).toEqual(["TLS 1.0 suites accepted", "SHA-1/MD5 certificate signature"]);
    expect(disagreements[0]?.testssl).toContain("HCS missed TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA");
  });

  it("counts a suite HCS's client cannot offer as not testable, not as agreement on the suite list alone", () => {
    const entries = [
      { id: "TLS1_2", severity: "OK", finding: "offered" },
      {
        id: "cipher-tls1_2_x0a",
        severity: "INFO",
        finding: "TLS 1.2   x0a     DES-CBC3-SHA    RSA   3DES   168   TLS_RSA_WITH_3DES_EDE_CBC_SHA",
      },
      { id: "cipherlist_3DES_IDEA", severity: "MEDIUM", finding: "offered" },
    ];
    const rows = compareWithTestssl(
      hcsResult({
        offered: ["TLS 1.2"],
        suites: { "TLS 1.2": [] },
        findings: [],
        notTestable: ["TLS_RSA_WITH_3DES_EDE_CBC_SHA"],
      }),
      entries,
    );
    expect(rows.find((r) => r.item === "TLS 1.2 suites accepted")).toMatchObject({ agree: true });
    expect(rows.find((r) => r.item === "TLS 1.2 suites accepted")?.testssl).toContain("1 not testable");
    // The verdict itself still disagrees: testssl saw 3DES, HCS could not look.
    expect(rows.find((r) => r.item.startsWith("NULL/anonymous"))).toMatchObject({
      hcs: "no",
      testssl: "yes",
      agree: false,
    });
  });
});
