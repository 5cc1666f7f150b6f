import { checkServerIdentity, type PeerCertificate } from "node:tls";
import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding, type FindingSpec } from "../finding.js";
import { TLS_VERSIONS, type TlsHandshakeOutcome } from "../io/types.js";
import { isWeakSignatureAlgorithm } from "../io/x509-fields.js";

type Handshake = Extract<TlsHandshakeOutcome, { ok: true }>;

/** Days before expiry at which we warn: renewals fail often enough that a month of notice matters. */
export const EXPIRY_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;

// Verification errors the date, name and self-signed checks already explain; any other one means "untrusted".
const EXPLAINED_ERRORS = new Set([
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** True when the certificate names `host` (wildcards as browsers apply them), using Node's own RFC 6125 check. */
export function certificateMatchesHost(host: string, subjectCn: string | null, sans: readonly string[]): boolean {
  const cert = {
    subject: subjectCn ? { CN: subjectCn } : {},
    subjectaltname: sans.join(", "),
  } as unknown as PeerCertificate;
  return checkServerIdentity(host, cert) === undefined;
}

/** Findings about the certificate a site presents (pure; `now` decides expiry). */
export function evaluateCertificate(siteHost: string, port: number, handshake: Handshake, now: Date): FindingParsed[] {
  const leaf = handshake.chain[0];
  if (!leaf) return [];
  const subject = `${siteHost}:${port}`;
  const evidence = {
    subject_cn: leaf.subject_cn,
    subject_alt_names: [...leaf.subject_alt_names],
    issuer: leaf.issuer_o ?? leaf.issuer_cn,
    valid_from: leaf.valid_from,
    valid_to: leaf.valid_to,
    key: `${leaf.key_type}${leaf.key_bits ? ` ${leaf.key_bits}` : ""}`,
    sha256: leaf.fingerprint256,
    signature_algorithm: leaf.signature_algorithm,
    ocsp_urls: leaf.ocsp_urls,
    crl_urls: leaf.crl_urls,
    verification_error: handshake.authorization_error,
  };
  const f = (spec: Omit<FindingSpec, "category" | "controls" | "subject" | "host" | "evidence">) =>
    externalFinding({
      category: "application_security",
      controls: CONTROLS.transportIntegrity,
      subject,
      host: siteHost,
      evidence,
      ...spec,
    });

  const findings: FindingParsed[] = [];
  const validTo = Date.parse(leaf.valid_to);
  const daysLeft = Math.floor((validTo - now.getTime()) / DAY_MS);
  if (validTo <= now.getTime()) {
    findings.push(
      f({
        check_id: "app.certificate.expired",
        severity: "critical",
        title: "Website certificate has expired",
        detail: `The certificate of ${subject} expired on ${leaf.valid_to.slice(0, 10)}. Browsers show a full-page warning and patients are trained to click through warnings that attackers can then imitate.`,
        remediation: "Renew the certificate now and automate renewal (ACME / the hosting provider's auto-renew).",
      }),
    );
  } else if (daysLeft <= EXPIRY_WARNING_DAYS) {
    findings.push(
      f({
        check_id: "app.certificate.expiring_soon",
        severity: "medium",
        title: `Website certificate expires in ${daysLeft} day${daysLeft === 1 ? "" : "s"}`,
        detail: `The certificate of ${subject} is valid until ${leaf.valid_to.slice(0, 10)}.`,
        remediation: "Renew the certificate before it expires and automate renewal so it cannot lapse.",
      }),
    );
  }
  if (Date.parse(leaf.valid_from) > now.getTime()) {
    findings.push(
      f({
        check_id: "app.certificate.not_yet_valid",
        severity: "high",
        title: "Website certificate is not valid yet",
        detail: `The certificate of ${subject} only becomes valid on ${leaf.valid_from.slice(0, 10)}; browsers reject it until then.`,
        remediation: "Install a certificate that is valid now (check the server's clock too).",
      }),
    );
  }
  if (!certificateMatchesHost(siteHost, leaf.subject_cn, leaf.subject_alt_names)) {
    findings.push(
      f({
        check_id: "app.certificate.hostname_mismatch",
        severity: "high",
        title: "Website certificate does not match the site's name",
        detail: `The certificate presented by ${subject} is for ${leaf.subject_alt_names.join(", ") || leaf.subject_cn || "another name"}, not ${siteHost}; browsers reject the connection.`,
        remediation: `Install a certificate whose subject alternative names include ${siteHost}.`,
      }),
    );
  }
  if (leaf.self_signed) {
    findings.push(
      f({
        check_id: "app.certificate.self_signed",
        severity: "high",
        title: "Website certificate is self-signed",
        detail: `${subject} presents a self-signed certificate, which no browser trusts; visitors cannot tell the real site from an impostor.`,
        remediation: "Replace it with a certificate from a public certificate authority (Let's Encrypt is free).",
      }),
    );
  } else if (!handshake.authorized && !EXPLAINED_ERRORS.has(handshake.authorization_error ?? "")) {
    findings.push(
      f({
        check_id: "app.certificate.untrusted",
        severity: "high",
        title: "Website certificate is not trusted",
        detail: `The certificate chain of ${subject} does not verify against trusted roots (${handshake.authorization_error}); a missing intermediate certificate is the usual cause.`,
        remediation: "Install the full chain (leaf plus intermediates) issued by a public certificate authority.",
      }),
    );
  }
  const weakRsa = leaf.key_type === "rsa" && leaf.key_bits !== null && leaf.key_bits < 2048;
  const weakEc = leaf.key_type === "ec" && leaf.key_bits !== null && leaf.key_bits < 256;
  if (weakRsa || weakEc) {
    findings.push(
      f({
        check_id: "app.certificate.weak_key",
        severity: "high",
        title: `Website certificate uses a ${leaf.key_bits}-bit ${leaf.key_type.toUpperCase()} key`,
        detail:
          "Keys this short are below NIST SP 800-57's minimum (RSA 2048, ECC 256) for protecting data in transit.",
        remediation: "Issue a new certificate with an RSA 2048-bit (or larger) or ECDSA P-256 key.",
      }),
    );
  }
  // A root's own signature is never checked by browsers; the leaf's and the intermediates' are.
  const weakSignatures = handshake.chain
    .filter((cert, index) => index === 0 || !cert.self_signed)
    .filter((cert) => isWeakSignatureAlgorithm(cert.signature_algorithm));
  if (weakSignatures.length > 0) {
    const names = weakSignatures.map((c) => `${c.subject_cn ?? "unnamed"} (${c.signature_algorithm})`).join(", ");
    findings.push(
      f({
        check_id: "app.certificate.weak_signature",
        severity: "high",
        title: "Website certificate chain is signed with a broken hash",
        detail: `${names} in the chain of ${subject} ${weakSignatures.length === 1 ? "is" : "are"} signed with a hash that can be collided (SHA-1 since SHAttered in 2017, MD5 since 2008), so a forged certificate can carry the same signature; browsers reject such certificates and NIST SP 800-52r2 §3.2.1 requires SHA-256 or stronger.`,
        remediation: "Reissue the certificate (and any intermediate) with a SHA-256 (or stronger) signature.",
      }),
    );
  }
  if (leaf.ocsp_urls !== null && leaf.crl_urls !== null && leaf.ocsp_urls.length === 0 && leaf.crl_urls.length === 0) {
    findings.push(
      f({
        check_id: "app.certificate.no_revocation_info",
        severity: "low",
        title: "Website certificate has no revocation information",
        detail: `The certificate of ${subject} names neither an OCSP responder nor a CRL distribution point, so if its key is stolen, browsers have no way to learn that it was revoked (NIST SP 800-52r2 §3.2.1 asks for revocation information in server certificates).`,
        remediation:
          "Use a certificate from a public certificate authority; they include an OCSP URL or CRL distribution point.",
      }),
    );
  }
  return findings;
}

/** The handshake to read the certificate from: the newest version the server accepted. */
export function bestHandshake(outcomes: Partial<Record<string, TlsHandshakeOutcome>>): Handshake | null {
  for (const v of [...TLS_VERSIONS].reverse()) {
    const o = outcomes[v];
    if (o?.ok) return o;
  }
  return null;
}

export const certificateCheck: ExternalCheck = {
  id: "app.certificate",
  category: "application_security",
  title: "Website certificate",
  subject: "site",
  timeoutMs: 15_000,
  async run(ctx): Promise<CheckOutcome> {
    const { host, outcomes } = await ctx.site.tlsHandshakes();
    if (!host.ok) return { status: host.status, detail: host.detail };
    const handshake = bestHandshake(outcomes);
    if (!handshake) {
      const failure = Object.values(outcomes).find((o) => o && !o.ok && o.code !== "handshake_failed");
      const status =
        failure && !failure.ok && (failure.code === "timeout" || failure.code === "aborted")
          ? "timeout"
          : "unreachable";
      return { status, detail: "no TLS handshake completed" };
    }
    const leaf = handshake.chain[0];
    return {
      status: "ok",
      findings: evaluateCertificate(ctx.target.siteHost, ctx.target.httpsPort, handshake, ctx.now),
      facts: leaf
        ? {
            subject_cn: leaf.subject_cn,
            issuer: leaf.issuer_o ?? leaf.issuer_cn,
            valid_to: leaf.valid_to,
            authorized: handshake.authorized,
            signature_algorithm: leaf.signature_algorithm,
            ocsp_urls: leaf.ocsp_urls,
            crl_urls: leaf.crl_urls,
          }
        : {},
    };
  },
};
