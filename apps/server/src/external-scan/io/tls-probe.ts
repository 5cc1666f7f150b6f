import { X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import {
  connect,
  createSecureContext,
  type DetailedPeerCertificate,
  rootCertificates,
  type SecureContext,
  type TLSSocket,
} from "node:tls";
import { netFailureCode } from "./net-errors.js";
import {
  type CertificateSummary,
  type NetFailureCode,
  TLS_VERSIONS,
  type TlsHandshakeOutcome,
  type TlsProbeIO,
  type TlsSuiteOutcome,
  type TlsVersion,
} from "./types.js";
import { DerError, readX509Fields, type X509Fields } from "./x509-fields.js";

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

// Which suites this process's OpenSSL can offer at all: builds without weak ciphers (Node's, Debian's) have no RC4,
// DES, 3DES or export suites, and those are "not testable by this client", never "not accepted".
const offerable = new Map<string, boolean>();
function canOffer(suite: string): boolean {
  let known = offerable.get(suite);
  if (known === undefined) {
    try {
      createSecureContext({ ciphers: suite.startsWith("TLS_") ? suite : `${suite}:@SECLEVEL=0` });
      known = true;
    } catch {
      known = false;
    }
    offerable.set(suite, known);
  }
  return known;
}

/** The cipher list for an offer: TLS 1.3 suites by name, older ones with the security level lowered. */
function cipherList(version: TlsVersion, suites: readonly string[]): string {
  return version === "TLSv1.3" ? suites.join(":") : `${suites.join(":")}:@SECLEVEL=0`;
}

/**
 * Connects and runs one TLS handshake, settling exactly once: on secureConnect (`onSecure`), a failure, the
 * timeout or the signal. A failure after TCP is up means the server would not agree to what was offered.
 */
function handshakeOnce<T>(
  o: {
    readonly address: string;
    readonly port: number;
    readonly servername: string;
    readonly secureContext: SecureContext;
    readonly timeoutMs: number;
    readonly signal: AbortSignal;
  },
  onSecure: (socket: TLSSocket) => T,
  onFailure: (code: NetFailureCode, detail?: string) => T,
): Promise<T> {
  return new Promise<T>((resolve) => {
    if (o.signal.aborted) return resolve(onFailure("aborted"));
    let connected = false;
    let settled = false;
    const socket = connect({
      host: o.address,
      port: o.port,
      // RFC 6066 forbids IP addresses as SNI; a site addressed by IP is checked against its address.
      ...(isIP(o.servername) === 0 ? { servername: o.servername } : {}),
      secureContext: o.secureContext,
      rejectUnauthorized: false,
    });
    const finish = (outcome: () => T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal.removeEventListener("abort", onAbort);
      const result = outcome();
      socket.destroy();
      resolve(result);
    };
    const onAbort = () => finish(() => onFailure("aborted"));
    const timer = setTimeout(
      () => finish(() => onFailure("timeout", connected ? "no handshake answer" : "no connection")),
      o.timeoutMs,
    );
    o.signal.addEventListener("abort", onAbort, { once: true });
    socket.once("connect", () => {
      connected = true;
    });
    socket.once("secureConnect", () => finish(() => onSecure(socket)));
    socket.once("error", (error: NodeJS.ErrnoException) => {
      const detail = error.code ?? error.message;
      // The client could not build its offer: not an answer from the server.
      if (error.code === "ERR_SSL_NO_CIPHERS_AVAILABLE") return finish(() => onFailure("error", detail));
      finish(() => onFailure(connected ? "handshake_failed" : netFailureCode(error), detail));
    });
  });
}

/** TLS handshakes with one version (and, for suite enumeration, a chosen set of suites) offered at a time. */
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
      handshakeOnce<TlsHandshakeOutcome>(
        { address, port, servername, secureContext: contextFor(version), timeoutMs: options.timeoutMs, signal },
        (socket) => {
          const negotiated = socket.getProtocol();
          return {
            ok: true,
            version: (TLS_VERSIONS as readonly string[]).includes(negotiated ?? "")
              ? (negotiated as TlsVersion)
              : version,
            cipher: socket.getCipher()?.name ?? "unknown",
            authorized: socket.authorized,
            authorization_error: socket.authorized ? null : String(socket.authorizationError ?? "unknown"),
            chain: summarizeChain(socket.getPeerCertificate(true)),
          };
        },
        (code, detail) => ({ ok: false, code, ...(detail ? { detail } : {}) }),
      ),
    offerSuites: ({ address, port, servername, version, suites, signal }) => {
      let secureContext: SecureContext;
      try {
        // No CA list: only the negotiated suite is read. The default store is shared, so this context is cheap.
        secureContext = createSecureContext({
          ciphers: cipherList(version, suites),
          minVersion: version,
          maxVersion: version,
        });
      } catch (error) {
        return Promise.resolve({ ok: false, code: "error", detail: `client cannot offer: ${String(error)}` });
      }
      return handshakeOnce<TlsSuiteOutcome>(
        { address, port, servername, secureContext, timeoutMs: options.timeoutMs, signal },
        (socket) => {
          const cipher = socket.getCipher();
          return { ok: true, suite: cipher?.standardName ?? cipher?.name ?? "unknown" };
        },
        (code, detail) => ({ ok: false, code, ...(detail ? { detail } : {}) }),
      );
    },
    canOffer,
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
    ...extensionFields(x509.raw),
  };
}

function extensionFields(der: Buffer): X509Fields | { signature_algorithm: string; ocsp_urls: null; crl_urls: null } {
  try {
    return readX509Fields(der);
  } catch (error) {
    // node:crypto parsed this certificate; if our walker cannot, say so rather than report "no revocation info".
    if (error instanceof DerError) return { signature_algorithm: "unreadable", ocsp_urls: null, crl_urls: null };
    throw error;
  }
}

// node:tls gives an array when an attribute repeats.
function firstValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}
