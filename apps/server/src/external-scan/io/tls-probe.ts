import { X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import {
  connect,
  createSecureContext,
  type DetailedPeerCertificate,
  rootCertificates,
  type SecureContext,
} from "node:tls";
import { netFailureCode } from "./net-errors.js";
import {
  type CertificateSummary,
  TLS_VERSIONS,
  type TlsHandshakeOutcome,
  type TlsProbeIO,
  type TlsVersion,
} from "./types.js";

export interface NodeTlsProbeOptions {
  /** PEM CA certificates trusted in addition to the system roots (the sample CA in tests and the demo). */
  readonly trustedCaPem?: readonly string[];
  /** Connect plus handshake. */
  readonly timeoutMs: number;
}

// OpenSSL 3 refuses TLS 1.0/1.1 at its default security level; the probe must be able to negotiate them to
// report that a server still offers them. No application data is ever sent over these connections.
const PROBE_CIPHERS = "DEFAULT:@SECLEVEL=0";
const MAX_CHAIN = 6;

/** TLS handshakes with one version offered at a time, through node:tls. */
export function createNodeTlsProbe(options: NodeTlsProbeOptions): TlsProbeIO {
  // `ca` replaces the default store, so the system roots are listed explicitly next to the extra CAs. Parsing
  // ~150 roots costs tens of milliseconds, so each version's context is built once, not per handshake.
  const ca = [...rootCertificates, ...(options.trustedCaPem ?? [])];
  const contexts = new Map<TlsVersion, SecureContext>();
  const contextFor = (version: TlsVersion) => {
    let context = contexts.get(version);
    if (!context) {
      context = createSecureContext({ ca, ciphers: PROBE_CIPHERS, minVersion: version, maxVersion: version });
      contexts.set(version, context);
    }
    return context;
  };
  return {
    handshake: ({ address, port, servername, version, signal }) =>
      new Promise<TlsHandshakeOutcome>((resolve) => {
        if (signal.aborted) return resolve({ ok: false, code: "aborted" });
        let connected = false;
        let settled = false;
        const socket = connect({
          host: address,
          port,
          // RFC 6066 forbids IP addresses as SNI; a site addressed by IP is checked against its address.
          ...(isIP(servername) === 0 ? { servername } : {}),
          secureContext: contextFor(version),
          rejectUnauthorized: false,
        });
        const finish = (outcome: TlsHandshakeOutcome) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          socket.destroy();
          resolve(outcome);
        };
        const onAbort = () => finish({ ok: false, code: "aborted" });
        const timer = setTimeout(
          () => finish({ ok: false, code: "timeout", detail: connected ? "no handshake answer" : "no connection" }),
          options.timeoutMs,
        );
        signal.addEventListener("abort", onAbort, { once: true });
        socket.once("connect", () => {
          connected = true;
        });
        socket.once("secureConnect", () => {
          const negotiated = socket.getProtocol();
          finish({
            ok: true,
            version: (TLS_VERSIONS as readonly string[]).includes(negotiated ?? "")
              ? (negotiated as TlsVersion)
              : version,
            cipher: socket.getCipher()?.name ?? "unknown",
            authorized: socket.authorized,
            authorization_error: socket.authorized ? null : String(socket.authorizationError ?? "unknown"),
            chain: summarizeChain(socket.getPeerCertificate(true)),
          });
        });
        socket.once("error", (error: NodeJS.ErrnoException) => {
          // Once TCP is up, any failure before secureConnect means the server would not speak this version.
          if (connected) finish({ ok: false, code: "handshake_failed", detail: error.code ?? error.message });
          else finish({ ok: false, code: netFailureCode(error), detail: error.code ?? error.message });
        });
      }),
  };
}

function summarizeChain(leaf: DetailedPeerCertificate): CertificateSummary[] {
  const chain: CertificateSummary[] = [];
  let cert: DetailedPeerCertificate | undefined = leaf;
  const seen = new Set<string>();
  while (cert?.raw && chain.length < MAX_CHAIN && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    chain.push(summarizeCertificate(cert));
    cert = cert.issuerCertificate;
  }
  return chain;
}

function summarizeCertificate(cert: DetailedPeerCertificate): CertificateSummary {
  const x509 = new X509Certificate(cert.raw);
  const keyType = x509.publicKey.asymmetricKeyType;
  return {
    subject_cn: firstValue(cert.subject?.CN),
    subject_alt_names: (cert.subjectaltname ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
    issuer_cn: firstValue(cert.issuer?.CN),
    issuer_o: firstValue(cert.issuer?.O),
    valid_from: new Date(x509.validFrom).toISOString(),
    valid_to: new Date(x509.validTo).toISOString(),
    serial: cert.serialNumber,
    fingerprint256: cert.fingerprint256,
    key_type: keyType === "rsa" || keyType === "rsa-pss" ? "rsa" : keyType === "ec" ? "ec" : "other",
    key_bits: typeof cert.bits === "number" ? cert.bits : null,
    self_signed: x509.checkIssued(x509) && x509.verify(x509.publicKey),
  };
}

// node:tls gives an array when an attribute repeats.
function firstValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}
