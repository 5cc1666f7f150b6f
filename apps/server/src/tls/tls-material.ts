import { X509Certificate } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../util/files.js";
import { assertOwnerOnly } from "../util/private-files.js";
import { certificateSha256, createCertificateAuthority, issueServerCertificate } from "./certificates.js";

export interface TlsMaterial {
  /** Certificate chain the listener presents (server certificate followed by the CA). */
  readonly certChainPem: string;
  readonly keyPem: string;
  /** The CA (or, with operator-provided certificates, the last certificate of the chain) clients pin. */
  readonly caPem: string;
  readonly caSha256: string;
  /** True when this call created a new CA (first start). */
  readonly createdCa: boolean;
  readonly source: "self-managed" | "configured";
}

const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;

/** The PEM certificate blocks of a file's text, in order (keys and other blocks are skipped). */
export function splitPemChain(pem: string): string[] {
  return pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/** Loads operator-provided certificate files; a key file others can read is refused (as ssh refuses one). */
export function loadConfiguredTls(certFile: string, keyFile: string): TlsMaterial {
  const chain = readFileSync(certFile, "utf8");
  const certs = splitPemChain(chain);
  if (certs.length === 0) throw new Error(`HCS_TLS_CERT: no PEM certificate in ${certFile}`);
  const caPem = `${certs[certs.length - 1]!}\n`;
  assertOwnerOnly(keyFile);
  return {
    certChainPem: chain,
    keyPem: readFileSync(keyFile, "utf8"),
    caPem,
    caSha256: certificateSha256(caPem),
    createdCa: false,
    source: "configured",
  };
}

/**
 * The self-managed CA under `<dataDir>/tls`: created on first start, reused afterwards; the server certificate is
 * re-issued when the host list changes or it is within 30 days of expiry. Key files are written with mode 0600, and
 * a key file found readable by group or others is refused.
 */
export function ensureSelfManagedTls(dataDir: string, hosts: readonly string[], now = new Date()): TlsMaterial {
  const dir = join(dataDir, "tls");
  const caCertFile = join(dir, "ca.crt");
  const caKeyFile = join(dir, "ca.key");
  const certFile = join(dir, "server.crt");
  const keyFile = join(dir, "server.key");
  const hostsFile = join(dir, "server.hosts");

  let createdCa = false;
  if (!existsSync(caCertFile) || !existsSync(caKeyFile)) {
    const ca = createCertificateAuthority("HCS Server CA", now);
    writeFileAtomic(caKeyFile, ca.keyPem, 0o600);
    writeFileAtomic(caCertFile, ca.certPem, 0o644);
    createdCa = true;
  }
  assertOwnerOnly(caKeyFile);
  const ca = { certPem: readFileSync(caCertFile, "utf8"), keyPem: readFileSync(caKeyFile, "utf8") };

  const wantHosts = [...new Set(hosts)].sort().join("\n");
  const needsIssue =
    createdCa ||
    !existsSync(certFile) ||
    !existsSync(keyFile) ||
    !existsSync(hostsFile) ||
    readFileSync(hostsFile, "utf8") !== wantHosts ||
    Date.parse(new X509Certificate(readFileSync(certFile, "utf8")).validTo) - now.getTime() < RENEW_BEFORE_MS;
  if (needsIssue) {
    const server = issueServerCertificate(ca, [...new Set(hosts)], now);
    writeFileAtomic(keyFile, server.keyPem, 0o600);
    writeFileAtomic(certFile, server.certPem, 0o644);
    writeFileAtomic(hostsFile, wantHosts, 0o644);
  }
  const certPem = readFileSync(certFile, "utf8");
  assertOwnerOnly(keyFile);
  return {
    certChainPem: certPem + ca.certPem,
    keyPem: readFileSync(keyFile, "utf8"),
    caPem: ca.certPem,
    caSha256: certificateSha256(ca.certPem),
    createdCa,
    source: "self-managed",
  };
}

/** Host names and addresses the self-managed server certificate covers. */
export function certificateHosts(bindHost: string, publicUrl: string): string[] {
  const publicHost = new URL(publicUrl).hostname.replace(/^\[|\]$/g, "");
  const hosts = ["localhost", "127.0.0.1", "::1", publicHost];
  if (bindHost !== "0.0.0.0" && bindHost !== "::") hosts.push(bindHost);
  return [...new Set(hosts)];
}
