import {
  createHash,
  createPrivateKey,
  generateKeyPair,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  X509Certificate,
} from "node:crypto";
import { createRequire } from "node:module";
import { isIP } from "node:net";
import { promisify } from "node:util";
import type forgeModule from "node-forge";

/**
 * X.509 for the server's own CA, the sample practices and the test receivers, in one place. node-forge lays out
 * the certificate; keys come from Node's native RSA generator and the signature from node:crypto (forge's pure-JS
 * RSA takes about a second per signature, native signing well under a millisecond).
 */
export interface KeyAndCert {
  readonly keyPem: string;
  readonly certPem: string;
}

export interface RsaKey {
  readonly privateKey: KeyObject;
  readonly privateKeyPem: string;
  readonly forgePublicKey: forgeModule.pki.PublicKey;
  readonly publicKeyDer: Buffer;
}

/** A CA able to issue: its certificate and its key (as a KeyObject, for native signing). */
export interface Issuer {
  readonly certPem: string;
  readonly key: KeyObject;
}

// node-forge (about 10 MB in memory) is needed only when a certificate is made: loaded then, not at start-up.
const require = createRequire(import.meta.url);
let forgeLoaded: typeof forgeModule | null = null;
const forgeLib = (): typeof forgeModule => {
  forgeLoaded ??= require("node-forge") as typeof forgeModule;
  return forgeLoaded;
};
// forge exposes getTBSCertificate at runtime but not in its type declarations.
type Pki = typeof forgeModule.pki & { getTBSCertificate(cert: forgeModule.pki.Certificate): forgeModule.asn1.Asn1 };
const pkiLib = (): Pki => forgeLib().pki as Pki;
const DAY_MS = 86_400_000;
const generateRsa = promisify(generateKeyPair);

function rsaKeyFrom(privateKey: KeyObject, publicKey: KeyObject): RsaKey {
  return {
    privateKey,
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    forgePublicKey: pkiLib().publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString()),
    publicKeyDer: publicKey.export({ type: "spki", format: "der" }),
  };
}

/** A new RSA key, generated synchronously (server start-up). */
export function rsaKeySync(bits: number): RsaKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: bits });
  return rsaKeyFrom(privateKey, publicKey);
}

/** A new RSA key, generated on libuv's thread pool (several at once for the sample practices). */
export async function rsaKey(bits: number): Promise<RsaKey> {
  const { privateKey, publicKey } = await generateRsa("rsa", { modulusLength: bits });
  return rsaKeyFrom(privateKey, publicKey);
}

function serialNumber(): string {
  const b = randomBytes(16);
  b[0] = b[0]! & 0x7f; // a positive DER integer
  return b.toString("hex");
}

/** The hash a certificate is signed with: SHA-256, or SHA-1 only for sample sites that must show the weakness. */
export type SignatureHash = "sha256" | "sha1";

/** Signs the certificate's TBS part with node:crypto (RSA with SHA-256 unless told otherwise). */
function signNatively(cert: forgeModule.pki.Certificate, issuerKey: KeyObject, hash: SignatureHash = "sha256"): string {
  const algorithm = hash === "sha1" ? pkiLib().oids.sha1WithRSAEncryption! : pkiLib().oids.sha256WithRSAEncryption!;
  cert.siginfo.algorithmOid = algorithm;
  cert.signatureOid = algorithm;
  const tbs = pkiLib().getTBSCertificate(cert);
  cert.tbsCertificate = tbs;
  cert.signature = sign(hash, Buffer.from(forgeLib().asn1.toDer(tbs).getBytes(), "binary"), issuerKey).toString(
    "binary",
  );
  return pkiLib().certificateToPem(cert);
}

/** A self-signed CA certificate for `key`, valid from `notBefore` for `days`. */
export function createCaCertificate(
  key: RsaKey,
  o: { commonName: string; organization: string; notBefore: Date; days: number },
): Issuer & KeyAndCert {
  const cert = pkiLib().createCertificate();
  cert.publicKey = key.forgePublicKey;
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = o.notBefore;
  cert.validity.notAfter = new Date(o.notBefore.getTime() + o.days * DAY_MS);
  const subject = [
    { name: "commonName", value: o.commonName },
    { name: "organizationName", value: o.organization },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  return { certPem: signNatively(cert, key.privateKey), key: key.privateKey, keyPem: key.privateKeyPem };
}

/** Where relying parties learn of revocation (RFC 5280 §4.2.2.1 AIA OCSP, §4.2.1.13 CRL distribution points). */
export interface RevocationPointers {
  readonly ocspUrl: string;
  readonly crlUrl: string;
}

/** The AIA extension with one OCSP responder; node-forge has no builder for it. */
function authorityInfoAccess(ocspUrl: string) {
  const { asn1 } = forgeLib();
  return {
    id: "1.3.6.1.5.5.7.1.1",
    value: asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer("1.3.6.1.5.5.7.48.1").getBytes()),
        asn1.create(asn1.Class.CONTEXT_SPECIFIC, 6, false, ocspUrl),
      ]),
    ]),
  };
}

/** A TLS server certificate for DNS names and IP addresses, issued by `issuer`, valid from `notBefore` for `days`. */
export function issueCertificate(
  issuer: Issuer,
  key: RsaKey,
  o: {
    hosts: readonly string[];
    notBefore: Date;
    days: number;
    signatureHash?: SignatureHash;
    revocation?: RevocationPointers;
  },
): KeyAndCert {
  if (o.hosts.length === 0) throw new RangeError("a server certificate needs at least one host");
  const caCert = pkiLib().certificateFromPem(issuer.certPem);
  const cert = pkiLib().createCertificate();
  cert.publicKey = key.forgePublicKey;
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = o.notBefore;
  cert.validity.notAfter = new Date(o.notBefore.getTime() + o.days * DAY_MS);
  cert.setSubject([{ name: "commonName", value: o.hosts[0]! }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    { name: "subjectAltName", altNames: o.hosts.map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h })) },
    { name: "subjectKeyIdentifier" },
    { name: "authorityKeyIdentifier", keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
    ...(o.revocation
      ? [
          authorityInfoAccess(o.revocation.ocspUrl),
          { name: "cRLDistributionPoints", altNames: [{ type: 6, value: o.revocation.crlUrl }] },
        ]
      : []),
  ]);
  return { keyPem: key.privateKeyPem, certPem: signNatively(cert, issuer.key, o.signatureHash) };
}

/** The server's own CA: RSA-3072, ten years. */
export function createCertificateAuthority(commonName: string, now = new Date()): KeyAndCert {
  return createCaCertificate(rsaKeySync(3072), {
    commonName,
    organization: "HCS self-managed CA",
    notBefore: new Date(now.getTime() - 60_000),
    days: 3650,
  });
}

/** A server certificate (RSA-2048, 397 days by default) from a CA given as PEM. */
export function issueServerCertificate(
  ca: KeyAndCert,
  hosts: readonly string[],
  now = new Date(),
  days = 397,
): KeyAndCert {
  return issueCertificate({ certPem: ca.certPem, key: createPrivateKey(ca.keyPem) }, rsaKeySync(2048), {
    hosts,
    notBefore: new Date(now.getTime() - 60_000),
    days,
  });
}

/** SHA-256 of a certificate's DER encoding, lower-case hex (the pin deploy tokens carry). */
export function certificateSha256(certPem: string): string {
  return createHash("sha256").update(new X509Certificate(certPem).raw).digest("hex");
}

/** The same fingerprint in the colon-separated upper-case form browsers and openssl print. */
export function formatFingerprint(hex: string): string {
  return hex.toUpperCase().match(/../g)!.join(":");
}
