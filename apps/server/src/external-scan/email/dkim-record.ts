import { createPublicKey } from "node:crypto";
import { parseTagList, strictTagList } from "./tag-list.js";

export interface DkimKeyRecord {
  /** k= (RFC 6376 §3.6.1), rsa when absent; lower case. */
  readonly keyType: string;
  /** An empty p= is a revoked key. */
  readonly revoked: boolean;
  /** RSA modulus length in bits; null for other key types or a key that does not decode. */
  readonly rsaBits: number | null;
  /** t=y: the signer is testing DKIM and receivers must not treat failures differently. */
  readonly testing: boolean;
  /**
   * True when a verifier can check signatures with this key: a valid tag-list, a v=DKIM1 first if present, a
   * known key type, a p= that decodes to an RSA public key or a 32-byte Ed25519 key, sha256 allowed by h=, and
   * email allowed by s=. A revoked key is not usable either.
   */
  readonly usable: boolean;
  /** Why the key is not usable (empty for a usable or merely revoked key). */
  readonly problems: readonly string[];
}

/** True when a TXT string looks like a DKIM key record (a v=DKIM1 tag first, or a p= tag). */
export function isDkimKeyRecord(text: string): boolean {
  return /^[ \t\r\n]*v[ \t\r\n]*=[ \t\r\n]*DKIM1[ \t\r\n]*(;|$)/i.test(text) || /(^|;)\s*p\s*=/i.test(text);
}

// RFC 6376 §3.2: a tag value's internal whitespace is folding whitespace; lists split on ":" with FWS around it.
const splitList = (value: string) => value.split(":").map((v) => v.replace(/\s+/g, "").toLowerCase());
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Parses a DKIM key record (RFC 6376 §3.6.1, RFC 8463 for Ed25519, RFC 8301 for hashes). The key size is read
 * from the public key itself; a record that is not a usable key says why in `problems`.
 */
export function parseDkimKeyRecord(text: string): DkimKeyRecord {
  // §3.2: a tag without "=" or a repeated tag makes the whole tag-list invalid.
  const { tags, problems } = strictTagList(text);
  // §3.6.1: v= is optional, but when present it must be first and exactly "DKIM1".
  const version = parseTagList(text).tags.find((t) => t.name === "v");
  if (version && (version.position !== 0 || version.value !== "DKIM1")) {
    problems.push(version.value !== "DKIM1" ? `v=${version.value} is not DKIM1` : "v=DKIM1 is not the first tag");
  }
  const keyType = (tags.get("k") ?? "rsa").toLowerCase();
  const p = tags.get("p");
  if (p === undefined) problems.push("the required p= tag is missing");
  // Folding whitespace may split the base64 key across lines (§3.2).
  const key = (p ?? "").replace(/\s+/g, "");
  const revoked = p !== undefined && key === "";
  let rsaBits: number | null = null;
  if (keyType !== "rsa" && keyType !== "ed25519") {
    problems.push(`k=${keyType} is not a key type verifiers support (rsa, ed25519)`);
  } else if (key !== "") {
    const der = STRICT_BASE64.test(key) ? Buffer.from(key, "base64") : null;
    if (der === null) problems.push("p= is not base64");
    else if (keyType === "rsa") {
      rsaBits = rsaModulusBits(der);
      if (rsaBits === null) problems.push("p= is not an RSA public key");
    } else if (der.length !== 32) {
      problems.push(`p= is ${der.length} bytes; an Ed25519 key is 32 (RFC 8463 §4.2)`);
    }
  }
  const hashes = tags.get("h");
  if (hashes !== undefined && !splitList(hashes).includes("sha256")) {
    problems.push(`h=${hashes} does not allow sha256, the only hash verifiers accept (RFC 8301)`);
  }
  const services = tags.get("s");
  if (services !== undefined && !splitList(services).some((s) => s === "*" || s === "email")) {
    problems.push(`s=${services} does not include email`);
  }
  return {
    keyType,
    revoked,
    rsaBits,
    testing: splitList(tags.get("t") ?? "").includes("y"),
    usable: problems.length === 0 && !revoked,
    problems,
  };
}

/** Modulus length of a DER SubjectPublicKeyInfo or bare PKCS#1 RSAPublicKey; null when it is not an RSA key. */
function rsaModulusBits(der: Buffer): number | null {
  for (const type of ["spki", "pkcs1"] as const) {
    try {
      const publicKey = createPublicKey({ key: der, format: "der", type });
      if (publicKey.asymmetricKeyType !== "rsa") return null;
      return publicKey.asymmetricKeyDetails?.modulusLength ?? null;
    } catch {
      // Not this encoding; try the next one.
    }
  }
  return null;
}
