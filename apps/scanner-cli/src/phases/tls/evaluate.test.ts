import { describe, expect, it } from "vitest";
import type { TlsProbeResult } from "../../host/host.js";
import { evaluateTls } from "./evaluate.js";

const now = new Date("2026-01-15T00:00:00Z");
const cert = {
  subject: "CN=pacs.clinic.internal",
  issuer: "CN=Clinic CA",
  validFrom: "2025-01-01T00:00:00.000Z",
  validTo: "2027-01-01T00:00:00.000Z",
  keyBits: 2048,
  selfSigned: false,
  sha256: "a".repeat(64),
};
const good: TlsProbeResult = {
  reachable: true,
  tls: true,
  versions: ["TLSv1.2", "TLSv1.3"],
  cipher: "TLS_AES_256_GCM_SHA384",
  certificate: cert,
  error: null,
};
const target = { host: "127.0.1.8", port: 443, service: "https" };
const checks = (p: TlsProbeResult, t = target) =>
  evaluateTls(t, p, now).map((f) => [f.check_id, f.severity, f.grade_cap ?? null]);

describe("evaluateTls", () => {
  it("has nothing to say about a modern service", () => {
    expect(checks(good)).toEqual([]);
  });

  it("caps the grade for TLS 1.0/1.1 and flags weak ciphers, bad keys, expiry and self-signing", () => {
    expect(checks({ ...good, versions: ["TLSv1", "TLSv1.1", "TLSv1.2"] })).toEqual([
      ["tls.legacy_tls", "medium", "legacy_tls"],
    ]);
    expect(checks({ ...good, cipher: "DES-CBC3-SHA" })).toEqual([["tls.weak_cipher", "medium", null]]);
    expect(checks({ ...good, certificate: { ...cert, validTo: "2025-12-01T00:00:00.000Z" } })).toEqual([
      ["tls.certificate_expired", "high", null],
    ]);
    expect(checks({ ...good, certificate: { ...cert, validTo: "2026-01-30T00:00:00.000Z" } })).toEqual([
      ["tls.certificate_expiring", "low", null],
    ]);
    expect(checks({ ...good, certificate: { ...cert, keyBits: 1024 } })).toEqual([["tls.weak_key", "medium", null]]);
    expect(checks({ ...good, certificate: { ...cert, keyBits: 256 } })).toEqual([]);
    expect(checks({ ...good, certificate: { ...cert, selfSigned: true } })).toEqual([
      ["tls.self_signed_certificate", "low", null],
    ]);
  });

  it("calls out cleartext protocols that answered without TLS", () => {
    const plain: TlsProbeResult = {
      reachable: true,
      tls: false,
      versions: [],
      cipher: null,
      certificate: null,
      error: "x",
    };
    expect(checks(plain, { host: "127.0.1.8", port: 2575, service: "hl7-mllp" })).toEqual([
      ["tls.cleartext_protocol", "high", null],
    ]);
    expect(checks(plain, { host: "127.0.1.8", port: 80, service: "http" })).toEqual([
      ["tls.cleartext_protocol", "medium", null],
    ]);
    expect(checks(plain, { host: "127.0.1.8", port: 22, service: "ssh" })).toEqual([]);
    expect(checks({ ...plain, reachable: false }, { host: "127.0.1.8", port: 80, service: "http" })).toEqual([]);
  });
});
