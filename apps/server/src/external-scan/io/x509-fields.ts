/**
 * The few X.509 fields node:crypto does not expose in Node 20 (the signature algorithm, the CRL distribution
 * points), read from the certificate's DER (RFC 5280 §4.1) with a minimal TLV walker. node-forge could parse them
 * too, but it refuses certificates with EC keys, which most sites now present. Pure: DER in, fields out.
 */

interface Tlv {
  readonly tag: number;
  /** Content start and end (exclusive). */
  readonly start: number;
  readonly end: number;
}

export class DerError extends Error {
  override readonly name = "DerError";
}

function readTlv(der: Uint8Array, offset: number, limit: number): Tlv {
  if (offset + 2 > limit) throw new DerError(`truncated TLV at ${offset}`);
  const tag = der[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError(`multi-byte tag at ${offset}`);
  let length = der[offset + 1]!;
  let start = offset + 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (octets === 0 || octets > 4 || start + octets > limit) throw new DerError(`bad length at ${offset}`);
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + der[start + i]!;
    start += octets;
  }
  const end = start + length;
  if (end > limit) throw new DerError(`TLV at ${offset} runs past its parent`);
  return { tag, start, end };
}

function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let offset = parent.start; offset < parent.end; ) {
    const tlv = readTlv(der, offset, parent.end);
    out.push(tlv);
    offset = tlv.end;
  }
  return out;
}

function oid(der: Uint8Array, tlv: Tlv): string {
  if (tlv.tag !== 0x06 || tlv.end <= tlv.start) throw new DerError("expected an OBJECT IDENTIFIER");
  const parts: number[] = [];
  let value = 0;
  for (let i = tlv.start; i < tlv.end; i++) {
    value = value * 128 + (der[i]! & 0x7f);
    if ((der[i]! & 0x80) === 0) {
      parts.push(value);
      value = 0;
    }
  }
  const first = parts.shift()!;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...parts].join(".");
}

const ascii = (der: Uint8Array, tlv: Tlv) => Buffer.from(der.subarray(tlv.start, tlv.end)).toString("latin1");

/** Signature algorithm OIDs (RFC 3279, 4055, 5758, 8410) by name. */
const SIGNATURE_ALGORITHMS: Readonly<Record<string, string>> = {
  "1.2.840.113549.1.1.2": "md2WithRSAEncryption",
  "1.2.840.113549.1.1.4": "md5WithRSAEncryption",
  "1.2.840.113549.1.1.5": "sha1WithRSAEncryption",
  "1.2.840.113549.1.1.10": "rsassaPss",
  "1.2.840.113549.1.1.11": "sha256WithRSAEncryption",
  "1.2.840.113549.1.1.12": "sha384WithRSAEncryption",
  "1.2.840.113549.1.1.13": "sha512WithRSAEncryption",
  "1.2.840.113549.1.1.14": "sha224WithRSAEncryption",
  "1.2.840.10045.4.1": "ecdsa-with-SHA1",
  "1.2.840.10045.4.3.1": "ecdsa-with-SHA224",
  "1.2.840.10045.4.3.2": "ecdsa-with-SHA256",
  "1.2.840.10045.4.3.3": "ecdsa-with-SHA384",
  "1.2.840.10045.4.3.4": "ecdsa-with-SHA512",
  "1.2.840.10040.4.3": "dsa-with-sha1",
  "2.16.840.1.101.3.4.3.2": "dsa-with-sha256",
  "1.3.101.112": "Ed25519",
  "1.3.101.113": "Ed448",
};

const OID_AUTHORITY_INFO_ACCESS = "1.3.6.1.5.5.7.1.1";
const OID_OCSP = "1.3.6.1.5.5.7.48.1";
const OID_CRL_DISTRIBUTION_POINTS = "2.5.29.31";
/** GeneralName uniformResourceIdentifier, [6] IMPLICIT IA5String. */
const TAG_URI = 0x86;

export interface X509Fields {
  readonly signature_algorithm: string;
  readonly ocsp_urls: string[];
  readonly crl_urls: string[];
}

/** Signature algorithm, OCSP responder URLs and CRL distribution point URLs of a DER certificate. */
export function readX509Fields(der: Uint8Array): X509Fields {
  const certificate = readTlv(der, 0, der.length);
  const [tbs, signatureAlgorithm] = children(der, certificate);
  if (!tbs || !signatureAlgorithm || certificate.tag !== 0x30 || tbs.tag !== 0x30) {
    throw new DerError("not an X.509 certificate");
  }
  const algorithmOid = oid(der, children(der, signatureAlgorithm)[0]!);
  const ocsp: string[] = [];
  const crl: string[] = [];
  // Extensions are tbsCertificate's [3] EXPLICIT field (tag 0xa3).
  const extensions = children(der, tbs).find((t) => t.tag === 0xa3);
  const list = extensions ? children(der, extensions)[0] : undefined;
  for (const extension of list ? children(der, list) : []) {
    const parts = children(der, extension);
    const id = oid(der, parts[0]!);
    const value = parts[parts.length - 1]!;
    if (value.tag !== 0x04) throw new DerError("extension value is not an OCTET STRING");
    const inner = readTlv(der, value.start, value.end);
    if (id === OID_AUTHORITY_INFO_ACCESS) {
      for (const description of children(der, inner)) {
        const [method, location] = children(der, description);
        if (method && location && oid(der, method) === OID_OCSP && location.tag === TAG_URI) {
          ocsp.push(ascii(der, location));
        }
      }
    } else if (id === OID_CRL_DISTRIBUTION_POINTS) {
      for (const point of children(der, inner)) {
        // DistributionPoint: [0] distributionPoint → [0] fullName (GeneralNames).
        const name = children(der, point).find((t) => t.tag === 0xa0);
        const fullName = name ? children(der, name).find((t) => t.tag === 0xa0) : undefined;
        for (const general of fullName ? children(der, fullName) : []) {
          if (general.tag === TAG_URI) crl.push(ascii(der, general));
        }
      }
    }
  }
  return { signature_algorithm: SIGNATURE_ALGORITHMS[algorithmOid] ?? algorithmOid, ocsp_urls: ocsp, crl_urls: crl };
}

/** Whether a signature algorithm rests on a hash that can be collided (MD2, MD5, SHA-1). */
export function isWeakSignatureAlgorithm(name: string): boolean {
  return /^(md2|md5|sha1)With|with-sha1$|-with-SHA1$/i.test(name);
}
