import type { CategoryName, GradeCapId, HipaaControlId, Severity } from "@hcs/protocol";
import { CONTROLS } from "./controls.js";
import { RISKY_SERVICES } from "./site/exposed-services-check.js";

/** One kind of finding a check can report: what it costs, which safeguards it cites, which grade it caps. */
export interface FindingKind {
  readonly check_id: string;
  /** Several when the check grades by what it found (a tracker's kind, for instance). */
  readonly severity: Severity | readonly Severity[];
  readonly controls: readonly HipaaControlId[];
  readonly grade_cap?: GradeCapId;
  /** What the finding means, for CHECKS.md. */
  readonly summary: string;
}

/** A check's catalogue entry: its id, its category, and every finding it may report. */
export interface CheckCatalogueEntry {
  readonly check: string;
  readonly category: CategoryName;
  readonly findings: readonly FindingKind[];
}

type Kind = Omit<FindingKind, "controls">;
const entry = (
  check: string,
  category: CategoryName,
  controls: readonly HipaaControlId[],
  kinds: readonly (Kind & { controls?: readonly HipaaControlId[] })[],
): CheckCatalogueEntry => ({
  check,
  category,
  findings: kinds.map((k) => ({ ...k, check_id: `${check}.${k.check_id}`, controls: k.controls ?? controls })),
});

/**
 * Every finding the external scan can report, declared once as data: CHECKS.md's table is generated from it (a test
 * compares the two), and the check runner refuses a finding whose severity, controls or grade cap disagree.
 */
export const CHECK_CATALOGUE: readonly CheckCatalogueEntry[] = [
  entry("email.mx", "email_security", CONTROLS.emailAuthentication, [
    { check_id: "missing", severity: "info", summary: "no MX records" },
    { check_id: "null_mx", severity: "info", summary: "null MX (RFC 7505): the domain takes no mail" },
  ]),
  entry("email.spf", "email_security", CONTROLS.emailAuthentication, [
    { check_id: "missing", severity: "high", summary: "no SPF record" },
    { check_id: "multiple_records", severity: "high", summary: "more than one SPF record (permerror)" },
    { check_id: "invalid", severity: "high", summary: "the record does not parse as RFC 7208 §12 (permerror)" },
    {
      check_id: "too_many_lookups",
      severity: "high",
      summary: "more than 10 DNS-querying terms, counted through include and redirect",
    },
    { check_id: "pass_all", severity: "critical", summary: "the policy ends in +all" },
    { check_id: "neutral_all", severity: "medium", summary: "the policy ends in ?all" },
    { check_id: "no_all", severity: "medium", summary: "nothing ends the policy" },
    { check_id: "broken_include", severity: "medium", summary: "an include or redirect target is missing or broken" },
    { check_id: "softfail_all", severity: "low", summary: "the policy ends in ~all" },
  ]),
  entry("email.dmarc", "email_security", CONTROLS.emailAuthentication, [
    { check_id: "missing", severity: "high", summary: "no v=DMARC1 record at _dmarc" },
    { check_id: "multiple_records", severity: "high", summary: "more than one DMARC record" },
    { check_id: "invalid", severity: "high", summary: "no usable p= and no rua to fall back on (RFC 7489 §6.6.3)" },
    { check_id: "policy_none", severity: "medium", summary: "p=none, or p=none applied because p/sp is unusable" },
    { check_id: "partial_pct", severity: "low", summary: "pct below 100" },
    { check_id: "testing_mode", severity: "low", summary: "t=y" },
    { check_id: "subdomain_policy_none", severity: "low", summary: "sp=none under an enforced p" },
    { check_id: "no_reports", severity: "low", summary: "no valid rua" },
  ]),
  entry("email.dkim", "email_security", CONTROLS.emailAuthentication, [
    { check_id: "weak_key", severity: "high", summary: "RSA key under 1024 bits" },
    {
      check_id: "invalid_key",
      severity: "medium",
      summary: "a key record verifiers cannot use (not an RSA or 32-byte Ed25519 key, bad tag-list, v=, k=, h= or s=)",
    },
    {
      check_id: "not_found",
      severity: "medium",
      summary: "_domainkey is NXDOMAIN and no key at 20 common selectors",
    },
    { check_id: "short_key", severity: "low", summary: "1024-bit RSA key" },
    { check_id: "testing_mode", severity: "low", summary: "t=y" },
    { check_id: "unknown_selector", severity: "info", summary: "names exist under _domainkey, none guessable" },
  ]),
  entry("email.mta_sts", "email_security", CONTROLS.transportEncryption, [
    { check_id: "missing", severity: "low", summary: "no v=STSv1 record (only when the domain has MX)" },
    { check_id: "invalid", severity: "low", summary: "the record breaks RFC 8461 §3.1, or there are several" },
  ]),
  entry("email.tls_rpt", "email_security", CONTROLS.transportEncryption, [
    { check_id: "missing", severity: "info", summary: "no v=TLSRPTv1 record (only when the domain has MX)" },
    { check_id: "invalid", severity: "low", summary: "the record breaks RFC 8460 §3, or there are several" },
  ]),
  entry("app.https", "application_security", CONTROLS.transportIntegrity, [
    { check_id: "not_offered", severity: "high", summary: "the site does not answer over HTTPS" },
    { check_id: "downgrade", severity: "high", summary: "HTTPS redirects to plain HTTP" },
  ]),
  entry("app.http_redirect", "application_security", CONTROLS.transportEncryption, [
    { check_id: "missing", severity: "medium", summary: "plain HTTP does not redirect to HTTPS" },
  ]),
  entry("app.tls_versions", "application_security", CONTROLS.transportIntegrity, [
    { check_id: "legacy", severity: "high", grade_cap: "legacy_tls", summary: "TLS 1.0 or 1.1 offered" },
    { check_id: "no_modern", severity: "high", summary: "neither TLS 1.2 nor 1.3 offered" },
    { check_id: "no_tls13", severity: "info", summary: "TLS 1.3 not offered" },
  ]),
  entry("app.tls_ciphers", "application_security", CONTROLS.transportIntegrity, [
    {
      check_id: "insecure",
      severity: ["critical", "high"],
      summary:
        "NULL, anonymous or export suites accepted (critical); RC4, DES, 3DES, RC2, IDEA or MD5 suites (high; not testable by the Node client, see facts)",
    },
    {
      check_id: "no_forward_secrecy",
      severity: "medium",
      summary: "static RSA key transport suites accepted (SP 800-52r2 lists only ECDHE/DHE)",
    },
    { check_id: "cbc_mode", severity: "low", summary: "CBC-mode suites accepted (SP 800-52r2 prefers GCM/CCM)" },
  ]),
  entry("app.certificate", "application_security", CONTROLS.transportIntegrity, [
    { check_id: "expired", severity: "critical", summary: "the certificate has expired" },
    { check_id: "not_yet_valid", severity: "high", summary: "the certificate is not valid yet" },
    { check_id: "hostname_mismatch", severity: "high", summary: "the certificate does not name the host" },
    { check_id: "self_signed", severity: "high", summary: "self-signed certificate" },
    { check_id: "untrusted", severity: "high", summary: "the chain does not verify" },
    { check_id: "weak_key", severity: "high", summary: "RSA under 2048 or EC under 256 bits" },
    {
      check_id: "weak_signature",
      severity: "high",
      summary: "the leaf or an intermediate is signed with SHA-1, MD5 or MD2",
    },
    { check_id: "expiring_soon", severity: "medium", summary: "expires within 30 days" },
    {
      check_id: "no_revocation_info",
      severity: "low",
      summary: "the leaf names neither an OCSP responder nor a CRL distribution point",
    },
  ]),
  entry("app.security_headers", "application_security", CONTROLS.webHardening, [
    {
      check_id: "hsts_missing",
      severity: "medium",
      controls: CONTROLS.transportEncryption,
      summary: "no usable Strict-Transport-Security",
    },
    {
      check_id: "hsts_short",
      severity: "low",
      controls: CONTROLS.transportEncryption,
      summary: "HSTS max-age under six months",
    },
    { check_id: "csp_missing", severity: "low", summary: "no Content-Security-Policy with at least one directive" },
    {
      check_id: "frame_protection_missing",
      severity: "low",
      summary: "any site may frame the page (no X-Frame-Options DENY/SAMEORIGIN, or frame-ancestors allows any site)",
    },
    {
      check_id: "content_type_options_missing",
      severity: "low",
      summary: "the first X-Content-Type-Options is not nosniff",
    },
    {
      check_id: "referrer_policy_weak",
      severity: "low",
      controls: CONTROLS.transportEncryption,
      summary: "the effective policy (meta, then header, then default) is unsafe-url or no-referrer-when-downgrade",
    },
  ]),
  entry("app.cookies", "application_security", CONTROLS.sessionProtection, [
    { check_id: "missing_secure", severity: "medium", summary: "cookies without Secure" },
    { check_id: "missing_httponly", severity: "low", summary: "session cookies without HttpOnly" },
    { check_id: "missing_samesite", severity: "low", summary: "no SameSite=Strict, Lax or None" },
  ]),
  entry("app.server_disclosure", "application_security", CONTROLS.softwareRisk, [
    {
      check_id: "end_of_life",
      severity: "high",
      grade_cap: "end_of_life_system",
      summary: "end-of-life server software (dated table: PHP, Apache 2.0/2.2, OpenSSL, IIS ≤ 8.5)",
    },
    { check_id: "version", severity: "low", summary: "software versions disclosed in headers" },
  ]),
  entry(
    "app.exposed_services",
    "application_security",
    CONTROLS.exposedServices,
    RISKY_SERVICES.map((s) => ({
      check_id: s.service,
      severity: s.severity,
      ...(s.remoteAccess ? { controls: CONTROLS.remoteAccess } : {}),
      ...(s.grade_cap ? { grade_cap: s.grade_cap } : {}),
      summary: `${s.name} reachable on port ${s.port}`,
    })),
  ),
  entry("privacy.trackers", "privacy_compliance", CONTROLS.tracking, [
    {
      check_id: "authenticated_page",
      severity: "high",
      grade_cap: "phi_tracker_on_authenticated_page",
      summary: "a tracker on a login, portal, scheduling or intake page",
    },
    {
      check_id: "public_page",
      severity: ["medium", "low"],
      summary: "ad pixels, session replay, social plugins medium; analytics, tag managers, marketing low",
    },
  ]),
  entry("privacy.notice", "privacy_compliance", CONTROLS.privacyNotice, [
    { check_id: "missing", severity: "medium", summary: "no privacy notice found" },
    { check_id: "npp_missing", severity: "low", summary: "a privacy policy but no Notice of Privacy Practices" },
  ]),
  entry("privacy.forms", "privacy_compliance", CONTROLS.formTransport, [
    {
      check_id: "cleartext_patient_form",
      severity: "critical",
      grade_cap: "cleartext_phi_form",
      summary: "a patient form submits over plain HTTP",
    },
    { check_id: "cleartext_form", severity: "medium", summary: "another form submits over plain HTTP" },
  ]),
];

/** The statuses that give a check's "not assessed" finding, `<check>.<status>`, info, citing the evaluation. */
export const NOT_ASSESSED_STATUSES = ["unreachable", "refused", "timeout", "error"] as const;

const byCheckId = new Map<string, FindingKind>();
for (const e of CHECK_CATALOGUE) {
  for (const kind of [
    ...e.findings,
    ...NOT_ASSESSED_STATUSES.map(
      (status): FindingKind => ({
        check_id: `${e.check}.${status}`,
        severity: "info",
        controls: CONTROLS.evaluation,
        summary: "the check could not assess its subject",
      }),
    ),
  ]) {
    // A repeated check_id would let two kinds of finding merge in reports.
    if (byCheckId.has(kind.check_id)) throw new Error(`duplicate catalogue check_id ${kind.check_id}`);
    byCheckId.set(kind.check_id, kind);
  }
}

/** The catalogue's kind of finding for a check_id, undefined when the catalogue does not declare it. */
export function findingKind(checkId: string): FindingKind | undefined {
  return byCheckId.get(checkId);
}

/** What makes a finding disagree with the catalogue, or null when it agrees. */
export function catalogueDisagreement(finding: {
  readonly check_id: string;
  readonly severity: Severity;
  readonly controls: readonly string[];
  readonly grade_cap?: GradeCapId | undefined;
}): string | null {
  const kind = findingKind(finding.check_id);
  if (!kind) return `${finding.check_id} is not in the check catalogue`;
  const severities: readonly Severity[] = typeof kind.severity === "string" ? [kind.severity] : kind.severity;
  if (!severities.includes(finding.severity)) return `${finding.check_id} has severity ${finding.severity}`;
  if ([...finding.controls].sort().join() !== [...kind.controls].sort().join()) {
    return `${finding.check_id} cites ${finding.controls.join(", ")}`;
  }
  if ((finding.grade_cap ?? null) !== (kind.grade_cap ?? null)) {
    return `${finding.check_id} has grade cap ${finding.grade_cap ?? "none"}`;
  }
  return null;
}

/** The HIPAA controls the external scan gives evidence about, with the check_ids that cite each. */
export function externallyVerifiedControls(): Map<HipaaControlId, string[]> {
  const controls = new Map<HipaaControlId, string[]>();
  for (const kind of byCheckId.values()) {
    for (const control of kind.controls) controls.set(control, [...(controls.get(control) ?? []), kind.check_id]);
  }
  return controls;
}
