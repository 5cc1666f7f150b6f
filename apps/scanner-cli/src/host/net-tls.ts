import { X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import { type ConnectionOptions, connect, type DetailedPeerCertificate, type SecureVersion } from "node:tls";
import type { TlsProbeResult } from "./host.js";

export const TLS_VERSIONS: readonly SecureVersion[] = ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"];
/** Legacy versions and ciphers must stay negotiable in the probe: finding them is the point. */
const PROBE_CIPHERS = "DEFAULT:@SECLEVEL=0";

interface Handshake {
  readonly ok: boolean;
  readonly version: string | null;
  readonly cipher: string | null;
  readonly certificate: DetailedPeerCertificate | null;
  readonly error: string | null;
  /** The TCP connection itself failed (nothing listening, or no answer). */
  readonly unreachable: boolean;
}

/**
 * TLS facts of host:port. A first handshake with the default range tells whether the service speaks TLS at all;
 * only then is each version tried alone. Certificates are read, never verified against a trust store (internal
 * services often use private CAs: the findings judge them instead). No application data is ever sent.
 */
export async function probeTls(
  host: string,
  port: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<TlsProbeResult> {
  const first = await handshake(host, port, timeoutMs, signal);
  if (!first.ok) {
    return {
      reachable: !first.unreachable,
      tls: false,
      versions: [],
      cipher: null,
      certificate: null,
      error: first.error,
    };
  }
  const perVersion = await Promise.all(TLS_VERSIONS.map((v) => handshake(host, port, timeoutMs, signal, v)));
  const versions = TLS_VERSIONS.filter((_, i) => perVersion[i]?.ok);
  return {
    reachable: true,
    tls: true,
    versions,
    cipher: first.cipher,
    certificate: first.certificate ? describeCertificate(first.certificate) : null,
    error: null,
  };
}

function handshake(
  host: string,
  port: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  version?: SecureVersion,
): Promise<Handshake> {
  return new Promise((resolve) => {
    const options: ConnectionOptions = {
      host,
      port,
      rejectUnauthorized: false,
      ciphers: PROBE_CIPHERS,
      ...(isIP(host) === 0 ? { servername: host } : {}),
      ...(version ? { minVersion: version, maxVersion: version } : { minVersion: "TLSv1" }),
    };
    let settled = false;
    let connected = false;
    const socket = connect(options);
    const finish = (h: Handshake) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      socket.destroy();
      resolve(h);
    };
    const fail = (error: string) =>
      finish({ ok: false, version: null, cipher: null, certificate: null, error, unreachable: !connected });
    const onAbort = () => fail("aborted");
    const timer = setTimeout(() => fail("timeout"), timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    socket.once("connect", () => {
      connected = true;
    });
    socket.once("secureConnect", () => {
      finish({
        ok: true,
        version: socket.getProtocol(),
        cipher: socket.getCipher()?.name ?? null,
        certificate: socket.getPeerCertificate(true) ?? null,
        error: null,
        unreachable: false,
      });
    });
    socket.once("error", (error: NodeJS.ErrnoException) => fail(error.code ?? "tls_error"));
  });
}

function describeCertificate(cert: DetailedPeerCertificate): TlsProbeResult["certificate"] {
  if (!cert.raw) return null;
  const x509 = new X509Certificate(cert.raw);
  return {
    subject: x509.subject.replaceAll("\n", ", "),
    issuer: x509.issuer.replaceAll("\n", ", "),
    validFrom: new Date(x509.validFrom).toISOString(),
    validTo: new Date(x509.validTo).toISOString(),
    keyBits: typeof cert.bits === "number" ? cert.bits : null,
    selfSigned: x509.checkIssued(x509) && x509.verify(x509.publicKey),
    sha256: x509.fingerprint256.replaceAll(":", "").toLowerCase(),
  };
}
