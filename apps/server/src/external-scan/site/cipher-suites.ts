import type { TlsVersion } from "../io/types.js";

/**
 * The TLS cipher suites the external scan knows, by IANA code point, IANA name and OpenSSL name (the IANA "TLS
 * Cipher Suites" registry and OpenSSL's `ciphers -stdname`). PSK and SRP suites are left out: they need a shared
 * key or password a public website never has. Every property of a suite is read from its IANA name
 * (`parseSuiteName`), so the table holds names only.
 */
const SUITE_TABLE: readonly (readonly [code: number, iana: string, openssl: string])[] = [
  // TLS 1.3 (RFC 8446 §B.4)
  [0x1301, "TLS_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256"],
  [0x1302, "TLS_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384"],
  [0x1303, "TLS_CHACHA20_POLY1305_SHA256", "TLS_CHACHA20_POLY1305_SHA256"],
  [0x1304, "TLS_AES_128_CCM_SHA256", "TLS_AES_128_CCM_SHA256"],
  [0x1305, "TLS_AES_128_CCM_8_SHA256", "TLS_AES_128_CCM_8_SHA256"],
  // ECDHE
  [0xc02b, "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "ECDHE-ECDSA-AES128-GCM-SHA256"],
  [0xc02c, "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "ECDHE-ECDSA-AES256-GCM-SHA384"],
  [0xc02f, "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "ECDHE-RSA-AES128-GCM-SHA256"],
  [0xc030, "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "ECDHE-RSA-AES256-GCM-SHA384"],
  [0xcca8, "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-RSA-CHACHA20-POLY1305"],
  [0xcca9, "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA-CHACHA20-POLY1305"],
  [0xc0ac, "TLS_ECDHE_ECDSA_WITH_AES_128_CCM", "ECDHE-ECDSA-AES128-CCM"],
  [0xc0ad, "TLS_ECDHE_ECDSA_WITH_AES_256_CCM", "ECDHE-ECDSA-AES256-CCM"],
  [0xc0ae, "TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8", "ECDHE-ECDSA-AES128-CCM8"],
  [0xc0af, "TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8", "ECDHE-ECDSA-AES256-CCM8"],
  [0xc05c, "TLS_ECDHE_ECDSA_WITH_ARIA_128_GCM_SHA256", "ECDHE-ECDSA-ARIA128-GCM-SHA256"],
  [0xc05d, "TLS_ECDHE_ECDSA_WITH_ARIA_256_GCM_SHA384", "ECDHE-ECDSA-ARIA256-GCM-SHA384"],
  [0xc060, "TLS_ECDHE_RSA_WITH_ARIA_128_GCM_SHA256", "ECDHE-ARIA128-GCM-SHA256"],
  [0xc061, "TLS_ECDHE_RSA_WITH_ARIA_256_GCM_SHA384", "ECDHE-ARIA256-GCM-SHA384"],
  [0xc009, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "ECDHE-ECDSA-AES128-SHA"],
  [0xc00a, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "ECDHE-ECDSA-AES256-SHA"],
  [0xc013, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "ECDHE-RSA-AES128-SHA"],
  [0xc014, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", "ECDHE-RSA-AES256-SHA"],
  [0xc023, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256", "ECDHE-ECDSA-AES128-SHA256"],
  [0xc024, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384", "ECDHE-ECDSA-AES256-SHA384"],
  [0xc027, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", "ECDHE-RSA-AES128-SHA256"],
  [0xc028, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384", "ECDHE-RSA-AES256-SHA384"],
  [0xc072, "TLS_ECDHE_ECDSA_WITH_CAMELLIA_128_CBC_SHA256", "ECDHE-ECDSA-CAMELLIA128-SHA256"],
  [0xc073, "TLS_ECDHE_ECDSA_WITH_CAMELLIA_256_CBC_SHA384", "ECDHE-ECDSA-CAMELLIA256-SHA384"],
  [0xc076, "TLS_ECDHE_RSA_WITH_CAMELLIA_128_CBC_SHA256", "ECDHE-RSA-CAMELLIA128-SHA256"],
  [0xc077, "TLS_ECDHE_RSA_WITH_CAMELLIA_256_CBC_SHA384", "ECDHE-RSA-CAMELLIA256-SHA384"],
  [0xc006, "TLS_ECDHE_ECDSA_WITH_NULL_SHA", "ECDHE-ECDSA-NULL-SHA"],
  [0xc010, "TLS_ECDHE_RSA_WITH_NULL_SHA", "ECDHE-RSA-NULL-SHA"],
  [0xc007, "TLS_ECDHE_ECDSA_WITH_RC4_128_SHA", "ECDHE-ECDSA-RC4-SHA"],
  [0xc011, "TLS_ECDHE_RSA_WITH_RC4_128_SHA", "ECDHE-RSA-RC4-SHA"],
  [0xc008, "TLS_ECDHE_ECDSA_WITH_3DES_EDE_CBC_SHA", "ECDHE-ECDSA-DES-CBC3-SHA"],
  [0xc012, "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA", "ECDHE-RSA-DES-CBC3-SHA"],
  // DHE
  [0x009e, "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", "DHE-RSA-AES128-GCM-SHA256"],
  [0x009f, "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384", "DHE-RSA-AES256-GCM-SHA384"],
  [0x00a2, "TLS_DHE_DSS_WITH_AES_128_GCM_SHA256", "DHE-DSS-AES128-GCM-SHA256"],
  [0x00a3, "TLS_DHE_DSS_WITH_AES_256_GCM_SHA384", "DHE-DSS-AES256-GCM-SHA384"],
  [0xccaa, "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "DHE-RSA-CHACHA20-POLY1305"],
  [0xc09e, "TLS_DHE_RSA_WITH_AES_128_CCM", "DHE-RSA-AES128-CCM"],
  [0xc09f, "TLS_DHE_RSA_WITH_AES_256_CCM", "DHE-RSA-AES256-CCM"],
  [0xc0a2, "TLS_DHE_RSA_WITH_AES_128_CCM_8", "DHE-RSA-AES128-CCM8"],
  [0xc0a3, "TLS_DHE_RSA_WITH_AES_256_CCM_8", "DHE-RSA-AES256-CCM8"],
  [0xc052, "TLS_DHE_RSA_WITH_ARIA_128_GCM_SHA256", "DHE-RSA-ARIA128-GCM-SHA256"],
  [0xc053, "TLS_DHE_RSA_WITH_ARIA_256_GCM_SHA384", "DHE-RSA-ARIA256-GCM-SHA384"],
  [0xc056, "TLS_DHE_DSS_WITH_ARIA_128_GCM_SHA256", "DHE-DSS-ARIA128-GCM-SHA256"],
  [0xc057, "TLS_DHE_DSS_WITH_ARIA_256_GCM_SHA384", "DHE-DSS-ARIA256-GCM-SHA384"],
  [0x0033, "TLS_DHE_RSA_WITH_AES_128_CBC_SHA", "DHE-RSA-AES128-SHA"],
  [0x0039, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA", "DHE-RSA-AES256-SHA"],
  [0x0032, "TLS_DHE_DSS_WITH_AES_128_CBC_SHA", "DHE-DSS-AES128-SHA"],
  [0x0038, "TLS_DHE_DSS_WITH_AES_256_CBC_SHA", "DHE-DSS-AES256-SHA"],
  [0x0067, "TLS_DHE_RSA_WITH_AES_128_CBC_SHA256", "DHE-RSA-AES128-SHA256"],
  [0x006b, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA256", "DHE-RSA-AES256-SHA256"],
  [0x0040, "TLS_DHE_DSS_WITH_AES_128_CBC_SHA256", "DHE-DSS-AES128-SHA256"],
  [0x006a, "TLS_DHE_DSS_WITH_AES_256_CBC_SHA256", "DHE-DSS-AES256-SHA256"],
  [0x0045, "TLS_DHE_RSA_WITH_CAMELLIA_128_CBC_SHA", "DHE-RSA-CAMELLIA128-SHA"],
  [0x0088, "TLS_DHE_RSA_WITH_CAMELLIA_256_CBC_SHA", "DHE-RSA-CAMELLIA256-SHA"],
  [0x0044, "TLS_DHE_DSS_WITH_CAMELLIA_128_CBC_SHA", "DHE-DSS-CAMELLIA128-SHA"],
  [0x0087, "TLS_DHE_DSS_WITH_CAMELLIA_256_CBC_SHA", "DHE-DSS-CAMELLIA256-SHA"],
  [0x00be, "TLS_DHE_RSA_WITH_CAMELLIA_128_CBC_SHA256", "DHE-RSA-CAMELLIA128-SHA256"],
  [0x00c4, "TLS_DHE_RSA_WITH_CAMELLIA_256_CBC_SHA256", "DHE-RSA-CAMELLIA256-SHA256"],
  [0x00bd, "TLS_DHE_DSS_WITH_CAMELLIA_128_CBC_SHA256", "DHE-DSS-CAMELLIA128-SHA256"],
  [0x00c3, "TLS_DHE_DSS_WITH_CAMELLIA_256_CBC_SHA256", "DHE-DSS-CAMELLIA256-SHA256"],
  [0x009a, "TLS_DHE_RSA_WITH_SEED_CBC_SHA", "DHE-RSA-SEED-SHA"],
  [0x0016, "TLS_DHE_RSA_WITH_3DES_EDE_CBC_SHA", "DHE-RSA-DES-CBC3-SHA"],
  [0x0015, "TLS_DHE_RSA_WITH_DES_CBC_SHA", "EDH-RSA-DES-CBC-SHA"],
  [0x0014, "TLS_DHE_RSA_EXPORT_WITH_DES40_CBC_SHA", "EXP-EDH-RSA-DES-CBC-SHA"],
  // Static RSA key transport
  [0x009c, "TLS_RSA_WITH_AES_128_GCM_SHA256", "AES128-GCM-SHA256"],
  [0x009d, "TLS_RSA_WITH_AES_256_GCM_SHA384", "AES256-GCM-SHA384"],
  [0xc09c, "TLS_RSA_WITH_AES_128_CCM", "AES128-CCM"],
  [0xc09d, "TLS_RSA_WITH_AES_256_CCM", "AES256-CCM"],
  [0xc0a0, "TLS_RSA_WITH_AES_128_CCM_8", "AES128-CCM8"],
  [0xc0a1, "TLS_RSA_WITH_AES_256_CCM_8", "AES256-CCM8"],
  [0xc050, "TLS_RSA_WITH_ARIA_128_GCM_SHA256", "ARIA128-GCM-SHA256"],
  [0xc051, "TLS_RSA_WITH_ARIA_256_GCM_SHA384", "ARIA256-GCM-SHA384"],
  [0x002f, "TLS_RSA_WITH_AES_128_CBC_SHA", "AES128-SHA"],
  [0x0035, "TLS_RSA_WITH_AES_256_CBC_SHA", "AES256-SHA"],
  [0x003c, "TLS_RSA_WITH_AES_128_CBC_SHA256", "AES128-SHA256"],
  [0x003d, "TLS_RSA_WITH_AES_256_CBC_SHA256", "AES256-SHA256"],
  [0x0041, "TLS_RSA_WITH_CAMELLIA_128_CBC_SHA", "CAMELLIA128-SHA"],
  [0x0084, "TLS_RSA_WITH_CAMELLIA_256_CBC_SHA", "CAMELLIA256-SHA"],
  [0x00ba, "TLS_RSA_WITH_CAMELLIA_128_CBC_SHA256", "CAMELLIA128-SHA256"],
  [0x00c0, "TLS_RSA_WITH_CAMELLIA_256_CBC_SHA256", "CAMELLIA256-SHA256"],
  [0x0096, "TLS_RSA_WITH_SEED_CBC_SHA", "SEED-SHA"],
  [0x0007, "TLS_RSA_WITH_IDEA_CBC_SHA", "IDEA-CBC-SHA"],
  [0x000a, "TLS_RSA_WITH_3DES_EDE_CBC_SHA", "DES-CBC3-SHA"],
  [0x0009, "TLS_RSA_WITH_DES_CBC_SHA", "DES-CBC-SHA"],
  [0x0005, "TLS_RSA_WITH_RC4_128_SHA", "RC4-SHA"],
  [0x0004, "TLS_RSA_WITH_RC4_128_MD5", "RC4-MD5"],
  [0x0003, "TLS_RSA_EXPORT_WITH_RC4_40_MD5", "EXP-RC4-MD5"],
  [0x0006, "TLS_RSA_EXPORT_WITH_RC2_CBC_40_MD5", "EXP-RC2-CBC-MD5"],
  [0x0008, "TLS_RSA_EXPORT_WITH_DES40_CBC_SHA", "EXP-DES-CBC-SHA"],
  [0x003b, "TLS_RSA_WITH_NULL_SHA256", "NULL-SHA256"],
  [0x0002, "TLS_RSA_WITH_NULL_SHA", "NULL-SHA"],
  [0x0001, "TLS_RSA_WITH_NULL_MD5", "NULL-MD5"],
  // Anonymous (no server authentication)
  [0x00a6, "TLS_DH_anon_WITH_AES_128_GCM_SHA256", "ADH-AES128-GCM-SHA256"],
  [0x00a7, "TLS_DH_anon_WITH_AES_256_GCM_SHA384", "ADH-AES256-GCM-SHA384"],
  [0x0034, "TLS_DH_anon_WITH_AES_128_CBC_SHA", "ADH-AES128-SHA"],
  [0x003a, "TLS_DH_anon_WITH_AES_256_CBC_SHA", "ADH-AES256-SHA"],
  [0x006c, "TLS_DH_anon_WITH_AES_128_CBC_SHA256", "ADH-AES128-SHA256"],
  [0x006d, "TLS_DH_anon_WITH_AES_256_CBC_SHA256", "ADH-AES256-SHA256"],
  [0x0046, "TLS_DH_anon_WITH_CAMELLIA_128_CBC_SHA", "ADH-CAMELLIA128-SHA"],
  [0x0089, "TLS_DH_anon_WITH_CAMELLIA_256_CBC_SHA", "ADH-CAMELLIA256-SHA"],
  [0x00bf, "TLS_DH_anon_WITH_CAMELLIA_128_CBC_SHA256", "ADH-CAMELLIA128-SHA256"],
  [0x00c5, "TLS_DH_anon_WITH_CAMELLIA_256_CBC_SHA256", "ADH-CAMELLIA256-SHA256"],
  [0xc018, "TLS_ECDH_anon_WITH_AES_128_CBC_SHA", "AECDH-AES128-SHA"],
  [0xc019, "TLS_ECDH_anon_WITH_AES_256_CBC_SHA", "AECDH-AES256-SHA"],
  [0xc015, "TLS_ECDH_anon_WITH_NULL_SHA", "AECDH-NULL-SHA"],
];

export type KeyExchange = "ECDHE" | "DHE" | "RSA" | "DH" | "ECDH" | "TLS1.3";
export type Authentication = "RSA" | "DSS" | "ECDSA" | "anonymous" | "certificate";
export type BulkCipher =
  | "AES"
  | "CHACHA20"
  | "CAMELLIA"
  | "ARIA"
  | "SEED"
  | "IDEA"
  | "3DES"
  | "DES"
  | "RC4"
  | "RC2"
  | "NULL";
export type CipherMode = "GCM" | "CCM" | "CCM_8" | "POLY1305" | "CBC" | "stream" | "none";

/** What a suite's name says about it. */
export interface SuiteProperties {
  readonly code: number;
  readonly iana: string;
  readonly openssl: string;
  readonly keyExchange: KeyExchange;
  readonly authentication: Authentication;
  /** Ephemeral key exchange: a stolen server key does not decrypt recorded sessions. */
  readonly forwardSecrecy: boolean;
  readonly cipher: BulkCipher;
  readonly keyBits: number;
  readonly mode: CipherMode;
  /** The record MAC (HMAC hash) or AEAD. */
  readonly mac: "AEAD" | "MD5" | "SHA1" | "SHA256" | "SHA384";
  /** Export-grade (40/56-bit) suites of the 1990s US export rules. */
  readonly exportGrade: boolean;
  /** The protocol versions that can negotiate it. */
  readonly versions: readonly TlsVersion[];
}

const CIPHERS: readonly (readonly [token: string, cipher: BulkCipher, bits: number, mode: CipherMode])[] = [
  ["AES_128_CCM_8", "AES", 128, "CCM_8"],
  ["AES_256_CCM_8", "AES", 256, "CCM_8"],
  ["AES_128_CCM", "AES", 128, "CCM"],
  ["AES_256_CCM", "AES", 256, "CCM"],
  ["AES_128_GCM", "AES", 128, "GCM"],
  ["AES_256_GCM", "AES", 256, "GCM"],
  ["AES_128_CBC", "AES", 128, "CBC"],
  ["AES_256_CBC", "AES", 256, "CBC"],
  ["CHACHA20_POLY1305", "CHACHA20", 256, "POLY1305"],
  ["CAMELLIA_128_CBC", "CAMELLIA", 128, "CBC"],
  ["CAMELLIA_256_CBC", "CAMELLIA", 256, "CBC"],
  ["ARIA_128_GCM", "ARIA", 128, "GCM"],
  ["ARIA_256_GCM", "ARIA", 256, "GCM"],
  ["SEED_CBC", "SEED", 128, "CBC"],
  ["IDEA_CBC", "IDEA", 128, "CBC"],
  ["3DES_EDE_CBC", "3DES", 112, "CBC"],
  ["DES_CBC", "DES", 56, "CBC"],
  ["DES40_CBC", "DES", 40, "CBC"],
  ["RC4_128", "RC4", 128, "stream"],
  ["RC4_40", "RC4", 40, "stream"],
  ["RC2_CBC_40", "RC2", 40, "CBC"],
  ["NULL", "NULL", 0, "none"],
];

const KEY_EXCHANGES: Readonly<Record<string, readonly [KeyExchange, Authentication]>> = {
  ECDHE_ECDSA: ["ECDHE", "ECDSA"],
  ECDHE_RSA: ["ECDHE", "RSA"],
  DHE_RSA: ["DHE", "RSA"],
  DHE_DSS: ["DHE", "DSS"],
  RSA: ["RSA", "RSA"],
  DH_RSA: ["DH", "RSA"],
  DH_DSS: ["DH", "DSS"],
  ECDH_RSA: ["ECDH", "RSA"],
  ECDH_ECDSA: ["ECDH", "ECDSA"],
  DH_anon: ["DHE", "anonymous"],
  ECDH_anon: ["ECDHE", "anonymous"],
};

const TLS12_AND_EARLIER: readonly TlsVersion[] = ["TLSv1", "TLSv1.1", "TLSv1.2"];

/** A suite's properties from its IANA name (RFC 8446 §B.4 for TLS 1.3, `TLS_<kx>_WITH_<cipher>_<mac>` before). */
export function parseSuiteName(code: number, iana: string, openssl: string): SuiteProperties {
  const tls13 = /^TLS_(AES_128_GCM|AES_256_GCM|CHACHA20_POLY1305|AES_128_CCM_8|AES_128_CCM)_SHA(256|384)$/.exec(iana);
  if (tls13) {
    const [, cipher, bits, mode] = CIPHERS.find(([t]) => t === tls13[1])!;
    return {
      code,
      iana,
      openssl,
      keyExchange: "TLS1.3",
      authentication: "certificate",
      forwardSecrecy: true,
      cipher,
      keyBits: bits,
      mode,
      mac: "AEAD",
      exportGrade: false,
      versions: ["TLSv1.3"],
    };
  }
  const m = /^TLS_([A-Za-z_]+?)(_EXPORT)?_WITH_(.+)$/.exec(iana);
  if (!m) throw new RangeError(`not a TLS cipher suite name: ${iana}`);
  const kx = KEY_EXCHANGES[m[1]!];
  if (!kx) throw new RangeError(`unknown key exchange in ${iana}`);
  const rest = m[3]!;
  const entry = CIPHERS.find(([token]) => rest === token || rest.startsWith(`${token}_`));
  if (!entry) throw new RangeError(`unknown cipher in ${iana}`);
  const [token, cipher, keyBits, mode] = entry;
  const macToken = rest.slice(token.length + 1);
  const aead = mode === "GCM" || mode === "CCM" || mode === "CCM_8" || mode === "POLY1305";
  const mac = aead
    ? "AEAD"
    : macToken === "MD5"
      ? "MD5"
      : macToken === "SHA"
        ? "SHA1"
        : macToken === "SHA384"
          ? "SHA384"
          : "SHA256";
  if (!aead && !["MD5", "SHA", "SHA256", "SHA384"].includes(macToken)) throw new RangeError(`unknown MAC in ${iana}`);
  // AEAD modes and SHA-256/384 MACs came with TLS 1.2 (RFC 5246, 5288, 6655, 7905); export suites died with TLS 1.1.
  const versions: readonly TlsVersion[] =
    aead || mac === "SHA256" || mac === "SHA384" ? ["TLSv1.2"] : m[2] ? ["TLSv1"] : TLS12_AND_EARLIER;
  const [keyExchange, authentication] = kx;
  return {
    code,
    iana,
    openssl,
    keyExchange,
    authentication,
    forwardSecrecy: keyExchange === "ECDHE" || keyExchange === "DHE",
    cipher,
    keyBits,
    mode,
    mac,
    exportGrade: m[2] !== undefined,
    versions,
  };
}

/** Every known suite with its properties, in the table's order (strongest classes first). */
export const CIPHER_SUITES: readonly SuiteProperties[] = SUITE_TABLE.map(([code, iana, openssl]) =>
  parseSuiteName(code, iana, openssl),
);

const byIana = new Map(CIPHER_SUITES.map((s) => [s.iana, s]));
const byOpenssl = new Map(CIPHER_SUITES.map((s) => [s.openssl, s]));

/** A suite by its IANA name (what node:tls reports as `standardName`) or its OpenSSL name. */
export function suiteByName(name: string): SuiteProperties | undefined {
  return byIana.get(name) ?? byOpenssl.get(name);
}
