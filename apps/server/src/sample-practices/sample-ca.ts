import { generateKeyPair, type KeyObject, randomBytes, sign } from "node:crypto";
import { promisify } from "node:util";
import forge from "node-forge";

/**
 * The sample practices' certificate authority. The server's own CA (tls/certificates.ts) is built for a long-lived
 * deployment: a 3072-bit key and node-forge's pure-JS signing, about a second per certificate. Sample practices
 * start in every test file, demo and benchmark run, so here keys are generated in parallel on libuv's thread pool
 * and certificates are signed by node:crypto (forge only lays out the X.509 structure): well under a second for all.
 */
export interface SampleCa {
  readonly certPem: string;
  readonly key: KeyObject;
  readonly subject: forge.pki.CertificateField[];
}

export interface IssuedCertificate {
  readonly keyPem: string;
  readonly certPem: string;
}

const generateRsa = promisify(generateKeyPair);
const DAY_MS = 86_400_000;

// forge exposes getTBSCertificate at runtime but not in its type declarations.
const pki = forge.pki as typeof forge.pki & { getTBSCertificate(cert: forge.pki.Certificate): forge.asn1.Asn1 };

/** An RSA key pair as node KeyObjects plus the forge public key the certificate embeds. */
export async function rsaKey(bits: number) {
  const { privateKey, publicKey } = await generateRsa("rsa", { modulusLength: bits });
  return {
    privateKey,
    publicKeyDer: publicKey.export({ type: "spki", format: "der" }),
    forgePublicKey: pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString()),
  };
}

function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f; // a positive DER integer
  return bytes.toString("hex");
}

/** Signs the certificate's TBS part with node:crypto (SHA-256 with RSA) in place of forge's JS RSA. */
function signWithNode(cert: forge.pki.Certificate, issuerKey: KeyObject): void {
  cert.siginfo.algorithmOid = pki.oids.sha256WithRSAEncryption!;
  cert.signatureOid = pki.oids.sha256WithRSAEncryption!;
  const tbs = pki.getTBSCertificate(cert);
  cert.tbsCertificate = tbs;
  const der = Buffer.from(forge.asn1.toDer(tbs).getBytes(), "binary");
  cert.signature = sign("sha256", der, issuerKey).toString("binary");
}

/** A self-signed CA valid from `notBefore` for ten years. */
export async function createSampleCa(commonName: string, notBefore: Date): Promise<SampleCa> {
  const key = await rsaKey(2048);
  const cert = pki.createCertificate();
  cert.publicKey = key.forgePublicKey;
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = new Date(notBefore.getTime() + 3650 * DAY_MS);
  const subject = [
    { name: "commonName", value: commonName },
    { name: "organizationName", value: "HCS sample practices (test only)" },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  signWithNode(cert, key.privateKey);
  return { certPem: pki.certificateToPem(cert), key: key.privateKey, subject: cert.subject.attributes };
}

/** A TLS server certificate for `hosts`, valid from `notBefore` for `days` (in the past for an expired one). */
export async function issueSampleCertificate(
  ca: SampleCa,
  hosts: readonly string[],
  notBefore: Date,
  days: number,
): Promise<IssuedCertificate> {
  const key = await rsaKey(2048);
  const cert = pki.createCertificate();
  cert.publicKey = key.forgePublicKey;
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = new Date(notBefore.getTime() + days * DAY_MS);
  cert.setSubject([{ name: "commonName", value: hosts[0] ?? "sample.test" }]);
  cert.setIssuer(ca.subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    { name: "subjectAltName", altNames: hosts.map((value) => ({ type: 2, value })) },
  ]);
  signWithNode(cert, ca.key);
  return {
    keyPem: key.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    certPem: pki.certificateToPem(cert),
  };
}
