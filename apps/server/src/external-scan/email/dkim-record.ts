import { createPublicKey } from "node:crypto";
import { firstTagValues, parseTagList } from "./tag-list.js";

export interface DkimKeyRecord {
  /** k= (RFC 6376 §3.6.1), rsa when absent. */
  readonly keyType: string;
  /** An empty p= is a revoked key. */
  readonly revoked: boolean;
  /** RSA modulus length in bits; null for other key types or an undecodable key. */
  readonly rsaBits: number | null;
  /** t=y: the signer is testing DKIM and receivers must not treat failures differently. */
  readonly testing: boolean;
}

/** True when a TXT string looks like a DKIM key record (v=DKIM1 first, or a p= tag). */
export function isDkimKeyRecord(text: string): boolean {
  return /^\s*v\s*=\s*DKIM1\s*(;|$)/i.test(text) || /(^|;)\s*p\s*=/i.test(text);
}

/** Parses a DKIM key record's tags (RFC 6376 §3.6.1); the key size is read from the public key itself. */
export function parseDkimKeyRecord(text: string): DkimKeyRecord {
  const tags = firstTagValues(parseTagList(text).tags);
  const keyType = (tags.get("k") ?? "rsa").toLowerCase();
  // Folding whitespace may split the base64 key across lines (RFC 6376 §3.2).
  const p = (tags.get("p") ?? "").replace(/\s+/g, "");
  return {
    keyType,
    revoked: p === "",
    rsaBits: keyType === "rsa" && p !== "" ? rsaModulusBits(p) : null,
    testing: (tags.get("t") ?? "").toLowerCase().split(":").includes("y"),
  };
}

/** Modulus length of a base64 SubjectPublicKeyInfo (or bare PKCS#1) RSA key; null when it is not one. */
function rsaModulusBits(base64: string): number | null {
  const der = Buffer.from(base64, "base64");
  for (const type of ["spki", "pkcs1"] as const) {
    try {
      const details = createPublicKey({ key: der, format: "der", type }).asymmetricKeyDetails;
      if (details?.modulusLength) return details.modulusLength;
    } catch {
      // Not this encoding; try the next one.
    }
  }
  return null;
}
