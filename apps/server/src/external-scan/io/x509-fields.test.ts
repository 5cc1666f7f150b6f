import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readFixture } from "../test-support/fixtures.js";
import { DerError, isWeakSignatureAlgorithm, readX509Fields } from "./x509-fields.js";

const der = (name: string) => new X509Certificate(readFixture(`tls/certs/${name}`)).raw;

describe("readX509Fields (public CA certificates from the Mozilla root store)", () => {
  it("reads a SHA-1 RSA certificate with an OCSP responder and a CRL distribution point", () => {
    expect(readX509Fields(der("accv-raiz1-sha1-ocsp-crl.pem"))).toEqual({
      signature_algorithm: "sha1WithRSAEncryption",
      ocsp_urls: ["http://ocsp.accv.es"],
      crl_urls: ["http://www.accv.es/fileadmin/Archivos/certificados/raizaccv1_der.crl"],
    });
  });

  it("reads an ECDSA certificate with two CRL URIs (HTTP and LDAP) and no OCSP", () => {
    const fields = readX509Fields(der("dtrust-br-2020-ecdsa-crl.pem"));
    expect(fields.signature_algorithm).toBe("ecdsa-with-SHA384");
    expect(fields.ocsp_urls).toEqual([]);
    expect(fields.crl_urls).toHaveLength(2);
    expect(fields.crl_urls[0]).toBe("http://crl.d-trust.net/crl/d-trust_br_root_ca_1_2020.crl");
    expect(fields.crl_urls[1]).toMatch(/^ldap:\/\/directory\.d-trust\.net\//);
  });

  it("reads a certificate without revocation pointers as having none", () => {
    expect(readX509Fields(der("isrg-root-x1-no-revocation.pem"))).toEqual({
      signature_algorithm: "sha256WithRSAEncryption",
      ocsp_urls: [],
      crl_urls: [],
    });
  });

  it("throws a DerError on truncated or foreign input, never reads past the buffer", () => {
    const full = der("accv-raiz1-sha1-ocsp-crl.pem");
    expect(() => readX509Fields(full.subarray(0, 200))).toThrow(DerError);
    expect(() => readX509Fields(Buffer.from([0x30, 0x03, 0x02, 0x01, 0x05]))).toThrow(DerError);
    expect(() => readX509Fields(Buffer.alloc(0))).toThrow(DerError);
  });

  it("calls MD2, MD5 and SHA-1 signatures weak, SHA-2, PSS and EdDSA not", () => {
    for (const weak of [
      "sha1WithRSAEncryption",
      "md5WithRSAEncryption",
      "md2WithRSAEncryption",
      "ecdsa-with-SHA1",
      "dsa-with-sha1",
    ]) {
      expect([weak, isWeakSignatureAlgorithm(weak)]).toEqual([weak, true]);
    }
    for (const strong of ["sha256WithRSAEncryption", "ecdsa-with-SHA384", "rsassaPss", "Ed25519", "dsa-with-sha256"]) {
      expect([strong, isWeakSignatureAlgorithm(strong)]).toEqual([strong, false]);
    }
  });
});
