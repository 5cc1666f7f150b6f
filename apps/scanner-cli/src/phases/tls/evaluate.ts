import type { FindingInput } from "@hcs/protocol";
import type { TlsProbeResult } from "../../host/host.js";
import { CLEARTEXT_PORTS } from "../shared/cleartext-ports.js";
import { phaseFinding } from "../shared/finding.js";

const DAY_MS = 86_400_000;
const EXPIRY_WARNING_DAYS = 30;
const WEAK_CIPHER = /RC4|3DES|DES-CBC|NULL|EXPORT|MD5|anon/i;
/** Elliptic-curve key sizes: strong although far below RSA's 2048. */
const EC_KEY_BITS = new Set([224, 256, 384, 521]);
/** Services that speak cleartext unless wrapped in TLS (which the probe would have seen); SMTP may use STARTTLS, which the probe does not try, so it is reported as cleartext here only. */
export const CLEARTEXT_SERVICES: ReadonlyMap<number, string> = new Map([...CLEARTEXT_PORTS, [25, "smtp"]]);

export interface TlsTarget {
  readonly host: string;
  readonly port: number;
  readonly service: string;
}

/** Findings about one service from its TLS probe (pure; `now` injected). */
export function evaluateTls(target: TlsTarget, probe: TlsProbeResult, now: Date): FindingInput[] {
  const where = `${target.host}:${target.port}`;
  const base = { subject: where, host: target.host };
  if (!probe.tls) {
    const cleartext = CLEARTEXT_SERVICES.get(target.port);
    if (!probe.reachable || !cleartext) return [];
    return [
      phaseFinding("tls", {
        ...base,
        check: "cleartext_protocol",
        severity: cleartext === "telnet" || cleartext === "ftp" || cleartext === "hl7-mllp" ? "high" : "medium",
        title: `${cleartext} on ${where} carries data without encryption`,
        detail: `The service answered but did not negotiate TLS; credentials and any ePHI it carries cross the network readable.`,
        remediation: `Serve ${cleartext} only over TLS (or its secure counterpart) and close the cleartext port.`,
        evidence: { host: target.host, port: target.port, service: cleartext },
      }),
    ];
  }
  const out: FindingInput[] = [];
  const legacy = probe.versions.filter((v) => v === "TLSv1" || v === "TLSv1.1");
  if (legacy.length > 0) {
    out.push(
      phaseFinding("tls", {
        ...base,
        check: "legacy_tls",
        severity: "medium",
        gradeCap: "legacy_tls",
        title: `${where} still accepts ${legacy.join(" and ")}`,
        detail:
          "TLS 1.0 and 1.1 are deprecated (RFC 8996) and no longer meet NIST SP 800-52r2 for protecting ePHI in transit.",
        remediation: "Disable TLS 1.0 and 1.1; allow TLS 1.2 and 1.3 only.",
        evidence: { host: target.host, port: target.port, versions: [...probe.versions] },
      }),
    );
  }
  if (probe.cipher && WEAK_CIPHER.test(probe.cipher)) {
    out.push(
      phaseFinding("tls", {
        ...base,
        check: "weak_cipher",
        severity: "medium",
        title: `${where} negotiates the weak cipher ${probe.cipher}`,
        detail: "The negotiated cipher suite is broken or export-grade.",
        remediation: "Restrict the cipher list to AEAD suites (AES-GCM, ChaCha20-Poly1305) with forward secrecy.",
        evidence: { host: target.host, port: target.port, cipher: probe.cipher },
      }),
    );
  }
  const cert = probe.certificate;
  if (cert) {
    const daysLeft = Math.floor((Date.parse(cert.validTo) - now.getTime()) / DAY_MS);
    if (daysLeft < 0) {
      out.push(
        phaseFinding("tls", {
          ...base,
          check: "certificate_expired",
          severity: "high",
          title: `The certificate of ${where} expired ${-daysLeft} days ago`,
          detail: "Clients either refuse the connection or are trained to click through warnings, which defeats TLS.",
          remediation: "Renew the certificate and automate renewal (ACME or your CA's agent).",
          evidence: { host: target.host, port: target.port, valid_to: cert.validTo },
        }),
      );
    } else if (daysLeft <= EXPIRY_WARNING_DAYS) {
      out.push(
        phaseFinding("tls", {
          ...base,
          check: "certificate_expiring",
          severity: "low",
          title: `The certificate of ${where} expires in ${daysLeft} days`,
          detail: "An expired certificate interrupts the service or its clients' trust in it.",
          remediation: "Renew the certificate now and automate renewal.",
          evidence: { host: target.host, port: target.port, valid_to: cert.validTo },
        }),
      );
    }
    if (cert.keyBits !== null && cert.keyBits < 2048 && !EC_KEY_BITS.has(cert.keyBits)) {
      out.push(
        phaseFinding("tls", {
          ...base,
          check: "weak_key",
          severity: "medium",
          title: `The certificate of ${where} has a ${cert.keyBits}-bit key`,
          detail: "RSA keys under 2048 bits are below NIST's minimum.",
          remediation: "Issue a new certificate with an RSA 2048+ or ECDSA P-256 key.",
          evidence: { host: target.host, port: target.port, key_bits: cert.keyBits },
        }),
      );
    }
    if (cert.selfSigned) {
      out.push(
        phaseFinding("tls", {
          ...base,
          check: "self_signed_certificate",
          severity: "low",
          title: `${where} presents a self-signed certificate`,
          detail: "Clients cannot authenticate the service, so a machine on the path can impersonate it.",
          remediation:
            "Issue the certificate from the practice's internal CA (or a public CA) and distribute the CA to clients.",
          evidence: { host: target.host, port: target.port, subject: cert.subject },
        }),
      );
    }
  }
  return out;
}
