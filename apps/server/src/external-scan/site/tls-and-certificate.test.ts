import { describe, expect, it } from "vitest";
import type { TlsHandshakeOutcome } from "../io/types.js";
import { readFixture } from "../test-support/fixtures.js";
import { bestHandshake, certificateMatchesHost, evaluateCertificate } from "./certificate-check.js";
import { evaluateTlsVersions, offeredTlsVersions } from "./tls-versions-check.js";

type Handshake = Extract<TlsHandshakeOutcome, { ok: true }>;
const letsEncrypt = JSON.parse(readFixture("tls/lets-encrypt.json")) as Handshake & { provenance: string };
const HOST = "www.cedarpoint-clinic.example";
const DURING = new Date("2025-02-01T00:00:00Z");

/** The fixture handshake with its leaf certificate changed. */
function withLeaf(changes: Partial<Handshake["chain"][number]>, handshake: Partial<Handshake> = {}): Handshake {
  return {
    ...letsEncrypt,
    ...handshake,
    chain: [{ ...letsEncrypt.chain[0]!, ...changes }, ...letsEncrypt.chain.slice(1)],
  };
}
const ids = (findings: { check_id: string }[]) => findings.map((f) => f.check_id);

describe("evaluateCertificate", () => {
  it("accepts a current Let's Encrypt certificate for the site's name", () => {
    expect(evaluateCertificate(HOST, 443, letsEncrypt, DURING)).toEqual([]);
  });

  it("warns 30 days before expiry and reports expiry as critical", () => {
    const soon = evaluateCertificate(HOST, 443, letsEncrypt, new Date("2025-03-20T00:00:00Z"));
    expect(soon.map((f) => [f.check_id, f.severity, f.title])).toEqual([
      ["app.certificate.expiring_soon", "medium", "Website certificate expires in 13 days"],
    ]);
    const expired = evaluateCertificate(HOST, 443, letsEncrypt, new Date("2025-04-03T00:00:00Z"));
    expect(expired.map((f) => [f.check_id, f.severity])).toEqual([["app.certificate.expired", "critical"]]);
  });

  it("flags a certificate that is not valid yet", () => {
    expect(ids(evaluateCertificate(HOST, 443, letsEncrypt, new Date("2024-12-31T00:00:00Z")))).toEqual([
      "app.certificate.not_yet_valid",
    ]);
  });

  it("flags a name the certificate does not cover", () => {
    expect(ids(evaluateCertificate("portal.cedarpoint-clinic.example", 443, letsEncrypt, DURING))).toEqual([
      "app.certificate.hostname_mismatch",
    ]);
  });

  it("tells a self-signed certificate from an incomplete chain", () => {
    const selfSigned = withLeaf(
      { self_signed: true },
      { authorized: false, authorization_error: "DEPTH_ZERO_SELF_SIGNED_CERT" },
    );
    expect(ids(evaluateCertificate(HOST, 443, selfSigned, DURING))).toEqual(["app.certificate.self_signed"]);
    const noIntermediate = {
      ...letsEncrypt,
      authorized: false,
      authorization_error: "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
    };
    const [untrusted] = evaluateCertificate(HOST, 443, noIntermediate, DURING);
    expect(untrusted?.check_id).toBe("app.certificate.untrusted");
    expect(untrusted?.detail).toContain("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
  });

  it("does not double-report expiry or a name mismatch as untrusted", () => {
    const expired = { ...letsEncrypt, authorized: false, authorization_error: "CERT_HAS_EXPIRED" };
    expect(ids(evaluateCertificate(HOST, 443, expired, new Date("2025-05-01T00:00:00Z")))).toEqual([
      "app.certificate.expired",
    ]);
  });

  it("flags RSA keys under 2048 bits and EC keys under 256 bits", () => {
    expect(ids(evaluateCertificate(HOST, 443, withLeaf({ key_type: "rsa", key_bits: 1024 }), DURING))).toEqual([
      "app.certificate.weak_key",
    ]);
    expect(evaluateCertificate(HOST, 443, withLeaf({ key_type: "rsa", key_bits: 2048 }), DURING)).toEqual([]);
    expect(ids(evaluateCertificate(HOST, 443, withLeaf({ key_type: "ec", key_bits: 224 }), DURING))).toEqual([
      "app.certificate.weak_key",
    ]);
  });

  it("flags a SHA-1 or MD5 signature on the leaf or an intermediate, not on a root", () => {
    const sha1Leaf = withLeaf({ signature_algorithm: "sha1WithRSAEncryption" });
    const [weak] = evaluateCertificate(HOST, 443, sha1Leaf, DURING);
    expect([weak?.check_id, weak?.severity]).toEqual(["app.certificate.weak_signature", "high"]);
    expect(weak?.detail).toContain("www.cedarpoint-clinic.example (sha1WithRSAEncryption)");
    const md5Intermediate = {
      ...letsEncrypt,
      chain: [letsEncrypt.chain[0]!, { ...letsEncrypt.chain[1]!, signature_algorithm: "md5WithRSAEncryption" }],
    };
    expect(ids(evaluateCertificate(HOST, 443, md5Intermediate, DURING))).toEqual(["app.certificate.weak_signature"]);
    const sha1Root = {
      ...letsEncrypt,
      chain: [
        ...letsEncrypt.chain,
        { ...letsEncrypt.chain[1]!, self_signed: true, signature_algorithm: "sha1WithRSAEncryption" },
      ],
    };
    expect(evaluateCertificate(HOST, 443, sha1Root, DURING)).toEqual([]);
  });

  it("flags a leaf with neither OCSP nor CRL pointers as low, and accepts either one", () => {
    const none = evaluateCertificate(HOST, 443, withLeaf({ ocsp_urls: [], crl_urls: [] }), DURING);
    expect(none.map((f) => [f.check_id, f.severity])).toEqual([["app.certificate.no_revocation_info", "low"]]);
    expect(
      evaluateCertificate(HOST, 443, withLeaf({ ocsp_urls: [], crl_urls: ["http://c.example/x.crl"] }), DURING),
    ).toEqual([]);
    // Fields the probe could not read are not evidence of absence.
    expect(evaluateCertificate(HOST, 443, withLeaf({ ocsp_urls: null, crl_urls: null }), DURING)).toEqual([]);
  });

  it("matches wildcards the way browsers do (one label only)", () => {
    expect(certificateMatchesHost("www.clinic.example", null, ["DNS:*.clinic.example"])).toBe(true);
    expect(certificateMatchesHost("a.b.clinic.example", null, ["DNS:*.clinic.example"])).toBe(false);
    expect(certificateMatchesHost("clinic.example", null, ["DNS:*.clinic.example"])).toBe(false);
  });
});

describe("TLS versions", () => {
  const refused = { ok: false, code: "handshake_failed" } as const;

  it("takes the certificate from the newest version negotiated", () => {
    const tls12 = { ...letsEncrypt, version: "TLSv1.2" as const };
    expect(bestHandshake({ TLSv1: refused, "TLSv1.2": tls12, "TLSv1.3": letsEncrypt })).toBe(letsEncrypt);
    expect(bestHandshake({ "TLSv1.2": tls12, "TLSv1.3": refused })).toBe(tls12);
    expect(bestHandshake({ "TLSv1.3": refused })).toBeNull();
  });

  it("passes TLS 1.2 + 1.3 only", () => {
    const outcomes = { TLSv1: refused, "TLSv1.1": refused, "TLSv1.2": letsEncrypt, "TLSv1.3": letsEncrypt };
    expect(offeredTlsVersions(outcomes)).toEqual(["TLSv1.2", "TLSv1.3"]);
    expect(evaluateTlsVersions(HOST, 443, outcomes)).toEqual([]);
  });

  it("caps the grade when TLS 1.0 or 1.1 is offered, and notes a missing TLS 1.3", () => {
    const outcomes = { TLSv1: letsEncrypt, "TLSv1.1": letsEncrypt, "TLSv1.2": letsEncrypt, "TLSv1.3": refused };
    const findings = evaluateTlsVersions(HOST, 443, outcomes);
    expect(findings.map((f) => [f.check_id, f.severity, f.grade_cap])).toEqual([
      ["app.tls_versions.legacy", "high", "legacy_tls"],
      ["app.tls_versions.no_tls13", "info", undefined],
    ]);
    expect(findings[0]?.title).toBe("TLS 1.0 and TLS 1.1 still offered");
    expect(findings[0]?.evidence).toEqual({
      port: 443,
      offered: ["TLS 1.0", "TLS 1.1", "TLS 1.2"],
      not_offered: ["TLS 1.3"],
    });
  });

  it("reports a server that only speaks legacy TLS", () => {
    const findings = evaluateTlsVersions(HOST, 443, {
      TLSv1: letsEncrypt,
      "TLSv1.1": refused,
      "TLSv1.2": refused,
      "TLSv1.3": refused,
    });
    expect(ids(findings)).toEqual(["app.tls_versions.legacy", "app.tls_versions.no_modern"]);
  });
});
