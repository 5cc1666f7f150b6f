import { createHash, generateKeyPairSync, randomBytes, X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import forge from "node-forge";

export interface KeyAndCert {
  readonly keyPem: string;
  readonly certPem: string;
}

// Keys come from Node's native RSA generator (node-forge's pure-JS one takes seconds); forge builds the X.509.
function rsaKeyPair(bits: number): {
  privateKeyPem: string;
  publicKey: forge.pki.rsa.PublicKey;
  privateKey: forge.pki.rsa.PrivateKey;
} {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: bits });
  const privateKeyPem = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(privateKeyPem);
  return { privateKeyPem, privateKey: forgeKey, publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e) };
}

function serial(): string {
  // Positive 128-bit serial (leading nibble < 8 keeps the DER integer positive).
  const b = randomBytes(16);
  b[0] = b[0]! & 0x7f;
  return b.toString("hex");
}

/** Creates a self-signed CA certificate (10 years). */
export function createCertificateAuthority(commonName: string, now = new Date()): KeyAndCert {
  const keys = rsaKeyPair(3072);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + 10 * 365 * 24 * 3600 * 1000);
  const attrs = [
    { name: "commonName", value: commonName },
    { name: "organizationName", value: "HCS self-managed CA" },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { keyPem: keys.privateKeyPem, certPem: forge.pki.certificateToPem(cert) };
}

/** Issues a TLS server certificate for the given DNS names and IP addresses, signed by `ca` (825 days max). */
export function issueServerCertificate(
  ca: KeyAndCert,
  hosts: readonly string[],
  now = new Date(),
  days = 397,
): KeyAndCert {
  if (hosts.length === 0) throw new RangeError("a server certificate needs at least one host");
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const caKey = forge.pki.privateKeyFromPem(ca.keyPem);
  const keys = rsaKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + days * 24 * 3600 * 1000);
  cert.setSubject([{ name: "commonName", value: hosts[0]! }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: hosts.map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h })),
    },
    { name: "subjectKeyIdentifier" },
    { name: "authorityKeyIdentifier", keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return { keyPem: keys.privateKeyPem, certPem: forge.pki.certificateToPem(cert) };
}

/** SHA-256 of a certificate's DER encoding, lower-case hex (the pin deploy tokens carry). */
export function certificateSha256(certPem: string): string {
  return createHash("sha256").update(new X509Certificate(certPem).raw).digest("hex");
}

/** The same fingerprint in the colon-separated upper-case form browsers and openssl print. */
export function formatFingerprint(hex: string): string {
  return hex.toUpperCase().match(/../g)!.join(":");
}
