import type { SecureContextOptions, TlsOptions } from "node:tls";

/**
 * TLS 1.2 suites offered: ECDHE key exchange (forward secrecy) with AEAD ciphers only — Mozilla's "intermediate"
 * configuration without its finite-field DHE suites (Node sets no DH parameters, so those would never be chosen).
 * No static-RSA key exchange, no CBC, no SHA-1 MACs, no CCM8. Order: AES-GCM before ChaCha20 as Mozilla lists them.
 */
const TLS12_SUITES = [
  "ECDHE-ECDSA-AES128-GCM-SHA256",
  "ECDHE-RSA-AES128-GCM-SHA256",
  "ECDHE-ECDSA-AES256-GCM-SHA384",
  "ECDHE-RSA-AES256-GCM-SHA384",
  "ECDHE-ECDSA-CHACHA20-POLY1305",
  "ECDHE-RSA-CHACHA20-POLY1305",
];

/** TLS 1.3 suites (all three are AEAD with forward secrecy); TLS_AES_128_CCM_8 and TLS_AES_128_CCM stay off. */
const TLS13_SUITES = ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"];

/**
 * The HTTPS listener's protocol settings: TLS 1.2 and 1.3 only, the suites above, modern curves. Mozilla's
 * intermediate profile lets the client choose among equally strong suites (it knows whether it has AES hardware).
 */
export const SERVER_TLS_OPTIONS: Pick<
  TlsOptions & SecureContextOptions,
  "minVersion" | "ciphers" | "ecdhCurve" | "honorCipherOrder"
> = {
  minVersion: "TLSv1.2",
  ciphers: [...TLS13_SUITES, ...TLS12_SUITES].join(":"),
  ecdhCurve: "X25519:prime256v1:secp384r1",
  honorCipherOrder: false,
};
