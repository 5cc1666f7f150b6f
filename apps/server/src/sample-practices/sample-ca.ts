import {
  createCaCertificate,
  type Issuer,
  issueCertificate,
  type KeyAndCert,
  type RevocationPointers,
  rsaKey,
  type SignatureHash,
} from "../tls/certificates.js";

/**
 * The sample practices' certificate authority: 2048-bit keys generated in parallel on the thread pool (sample
 * practices start in every test file, demo and benchmark run), certificates from the shared X.509 code.
 */
export type SampleCa = Issuer;
export type IssuedCertificate = KeyAndCert;
export { rsaKey };

/** A self-signed CA valid from `notBefore` for ten years. */
export async function createSampleCa(commonName: string, notBefore: Date): Promise<SampleCa> {
  return createCaCertificate(await rsaKey(2048), {
    commonName,
    organization: "HCS sample practices (test only)",
    notBefore,
    days: 3650,
  });
}

/**
 * Where the sample CA would publish revocation, as public CAs do in every certificate they issue. Names under the
 * reserved .test TLD: nothing ever fetches them (the scan only reads that they are there).
 */
export const SAMPLE_REVOCATION: RevocationPointers = {
  ocspUrl: "http://ocsp.sample-ca.test",
  crlUrl: "http://crl.sample-ca.test/sample-ca.crl",
};

/** A TLS server certificate for `hosts`, valid from `notBefore` for `days` (in the past for an expired one). */
export async function issueSampleCertificate(
  ca: SampleCa,
  hosts: readonly string[],
  notBefore: Date,
  days: number,
  o: { signatureHash?: SignatureHash; revocation?: RevocationPointers } = {},
): Promise<IssuedCertificate> {
  return issueCertificate(ca, await rsaKey(2048), { hosts, notBefore, days, ...o });
}
