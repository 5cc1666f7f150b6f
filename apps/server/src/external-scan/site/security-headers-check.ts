import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding, type FindingSpec } from "../finding.js";
import { redactUrl } from "./urls.js";

/** Six months: the HSTS max-age Mozilla's Observatory and the HSTS preload list treat as the minimum. */
export const HSTS_MIN_MAX_AGE = 15_768_000;

/** max-age of a Strict-Transport-Security value (RFC 6797 §6.1), null when absent or malformed. */
export function hstsMaxAge(value: string | undefined): number | null {
  if (value === undefined) return null;
  const m = /(?:^|;)\s*max-age\s*=\s*"?(\d+)"?\s*(?:;|$)/i.exec(value);
  return m ? Number(m[1]) : null;
}

/** The frame-ancestors directive of a CSP, null when the policy has none. */
export function cspFrameAncestors(csp: string | undefined): string | null {
  if (!csp) return null;
  const directive = csp
    .split(";")
    .map((d) => d.trim())
    .find((d) => /^frame-ancestors(\s|$)/i.test(d));
  return directive ? directive.slice("frame-ancestors".length).trim() : null;
}

// Referrer policies that send the full URL (path and query) to other sites.
const LEAKY_REFERRER_POLICIES = new Set(["unsafe-url", "no-referrer-when-downgrade"]);

type Spec = Omit<FindingSpec, "category" | "subject" | "host" | "controls"> & { controls?: FindingSpec["controls"] };

/** Findings about the security headers of the site's HTTPS start page (pure; headers with lower-case names). */
export function evaluateSecurityHeaders(
  siteHost: string,
  url: string,
  headers: Readonly<Record<string, string>>,
): FindingParsed[] {
  const page = redactUrl(url);
  const f = (spec: Spec) =>
    externalFinding({
      category: "application_security",
      controls: CONTROLS.webHardening,
      subject: siteHost,
      host: siteHost,
      ...spec,
    });
  const findings: FindingParsed[] = [];

  const hsts = headers["strict-transport-security"];
  const maxAge = hstsMaxAge(hsts);
  if (maxAge === null || maxAge === 0) {
    findings.push(
      f({
        check_id: "app.security_headers.hsts_missing",
        severity: "medium",
        controls: CONTROLS.transportEncryption,
        title: "HSTS is not enabled",
        detail: `${page} sends no Strict-Transport-Security header${hsts ? ` (value "${hsts}" is unusable)` : ""}, so a visitor's first plain-HTTP request can be intercepted and kept off HTTPS (SSL stripping).`,
        evidence: { url: page, "strict-transport-security": hsts ?? null },
        remediation: 'Send "Strict-Transport-Security: max-age=31536000; includeSubDomains" on every HTTPS response.',
      }),
    );
  } else if (maxAge < HSTS_MIN_MAX_AGE) {
    findings.push(
      f({
        check_id: "app.security_headers.hsts_short",
        severity: "low",
        controls: CONTROLS.transportEncryption,
        title: "HSTS max-age is shorter than six months",
        detail: `max-age=${maxAge} seconds lets browsers forget the HTTPS-only rule quickly.`,
        evidence: { url: page, "strict-transport-security": hsts ?? null },
        remediation: "Raise max-age to at least 15768000 (six months); one year (31536000) is usual.",
      }),
    );
  }

  const csp = headers["content-security-policy"];
  if (!csp) {
    findings.push(
      f({
        check_id: "app.security_headers.csp_missing",
        severity: "low",
        title: "No Content-Security-Policy",
        detail: `${page} sends no Content-Security-Policy header, so an injected script (cross-site scripting, a compromised third-party tag) runs without restriction.`,
        evidence: { url: page },
        remediation: "Define a Content-Security-Policy that allows only the script and frame sources the site needs.",
      }),
    );
  }

  const xfo = headers["x-frame-options"]?.trim().toUpperCase();
  const ancestors = cspFrameAncestors(csp);
  if (xfo !== "DENY" && xfo !== "SAMEORIGIN" && (ancestors === null || /(^|\s)\*(\s|$)/.test(ancestors))) {
    findings.push(
      f({
        check_id: "app.security_headers.frame_protection_missing",
        severity: "low",
        title: "Pages can be framed by other sites (clickjacking)",
        detail: `${page} sets neither X-Frame-Options nor a CSP frame-ancestors directive, so another site can show it in an invisible frame and trick visitors into clicking.`,
        evidence: { url: page, "x-frame-options": headers["x-frame-options"] ?? null, frame_ancestors: ancestors },
        remediation:
          "Send \"Content-Security-Policy: frame-ancestors 'self'\" (and X-Frame-Options: SAMEORIGIN for old browsers).",
      }),
    );
  }

  if (headers["x-content-type-options"]?.trim().toLowerCase() !== "nosniff") {
    findings.push(
      f({
        check_id: "app.security_headers.content_type_options_missing",
        severity: "low",
        title: "X-Content-Type-Options: nosniff is missing",
        detail: `${page} lets browsers guess content types, which can turn an uploaded file into executable script.`,
        evidence: { url: page, "x-content-type-options": headers["x-content-type-options"] ?? null },
        remediation: 'Send "X-Content-Type-Options: nosniff" on every response.',
      }),
    );
  }

  // The last valid token wins when a comma-separated list is sent (W3C Referrer Policy §11.1).
  const referrer = headers["referrer-policy"]
    ?.split(",")
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean)
    .at(-1);
  if (!referrer || LEAKY_REFERRER_POLICIES.has(referrer)) {
    findings.push(
      f({
        check_id: "app.security_headers.referrer_policy_weak",
        severity: "low",
        controls: CONTROLS.transportEncryption,
        title: referrer ? `Referrer-Policy "${referrer}" leaks full URLs` : "No Referrer-Policy",
        detail: `Page addresses (which can name a condition, a provider or an appointment) ${referrer ? "are" : "may be"} sent to every third party the pages load from or link to.`,
        evidence: { url: page, "referrer-policy": headers["referrer-policy"] ?? null },
        remediation: 'Send "Referrer-Policy: strict-origin-when-cross-origin" (or no-referrer).',
      }),
    );
  }
  return findings;
}

export const securityHeadersCheck: ExternalCheck = {
  id: "app.security_headers",
  category: "application_security",
  title: "HTTP security headers",
  subject: "site",
  timeoutMs: 20_000,
  async run(ctx): Promise<CheckOutcome> {
    const https = await ctx.site.httpsHome();
    if (!https.ok) return { status: https.status, detail: https.detail };
    if (new URL(https.response.url).protocol !== "https:") {
      // Security headers of a page served over HTTP mean nothing (HSTS is even ignored there); app.https reports it.
      return { status: "ok", facts: { assessed: false, reason: "the site ends on a plain-HTTP page" } };
    }
    const { headers } = https.response;
    return {
      status: "ok",
      findings: evaluateSecurityHeaders(ctx.target.siteHost, https.response.url, headers),
      facts: Object.fromEntries(
        [
          "strict-transport-security",
          "content-security-policy",
          "x-frame-options",
          "x-content-type-options",
          "referrer-policy",
        ].map((h) => [h, headers[h] ?? null]),
      ),
    };
  },
};
