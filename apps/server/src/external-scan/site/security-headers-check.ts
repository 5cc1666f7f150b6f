import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding, type FindingSpec } from "../finding.js";
import { parseCspHeader } from "./csp.js";
import { framingPolicy } from "./frame-protection.js";
import { isNosniff } from "./header-values.js";
import { effectiveReferrerPolicy, type ReferrerPolicy } from "./referrer-policy.js";
import { redactUrl } from "./urls.js";

/** Six months: the HSTS max-age Mozilla's Observatory and the HSTS preload list treat as the minimum. */
export const HSTS_MIN_MAX_AGE = 15_768_000;

/** max-age of a Strict-Transport-Security value (RFC 6797 §6.1), null when absent or malformed. */
export function hstsMaxAge(value: string | undefined): number | null {
  if (value === undefined) return null;
  const m = /(?:^|;)\s*max-age\s*=\s*"?(\d+)"?\s*(?:;|$)/i.exec(value);
  return m ? Number(m[1]) : null;
}

// Referrer policies that send the full URL (path and query) to other sites.
const LEAKY_REFERRER_POLICIES: ReadonlySet<ReferrerPolicy> = new Set(["unsafe-url", "no-referrer-when-downgrade"]);

type Spec = Omit<FindingSpec, "category" | "subject" | "host" | "controls"> & { controls?: FindingSpec["controls"] };

/**
 * Findings about the security headers of the site's HTTPS start page (pure; headers with lower-case names, the
 * page's HTML for the policies it can set itself, such as `<meta name="referrer">`).
 */
export function evaluateSecurityHeaders(
  siteHost: string,
  url: string,
  headers: Readonly<Record<string, string>>,
  html = "",
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

  // A blank header, or one without a single well-formed directive, is no policy (CSP3 §2.2.2).
  const policies = parseCspHeader(headers["content-security-policy"]);
  if (policies.length === 0) {
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

  const framing = framingPolicy(policies, headers["x-frame-options"]);
  if (framing === "any-site") {
    const ancestors = policies.map((p) => p.get("frame-ancestors")?.join(" ")).filter((a) => a !== undefined);
    findings.push(
      f({
        check_id: "app.security_headers.frame_protection_missing",
        severity: "low",
        title: "Pages can be framed by other sites (clickjacking)",
        detail: `${page} ${ancestors.length > 0 ? `allows any site in its CSP frame-ancestors (${ancestors.join("; ")})` : "sets neither a valid X-Frame-Options nor a CSP frame-ancestors directive"}, so another site can show it in an invisible frame and trick visitors into clicking.`,
        evidence: {
          url: page,
          "x-frame-options": headers["x-frame-options"] ?? null,
          frame_ancestors: ancestors.length > 0 ? ancestors.join("; ") : null,
        },
        remediation:
          "Send \"Content-Security-Policy: frame-ancestors 'self'\" (and X-Frame-Options: SAMEORIGIN for old browsers).",
      }),
    );
  }

  if (!isNosniff(headers["x-content-type-options"])) {
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

  // Without a policy browsers apply strict-origin-when-cross-origin, which sends other sites the origin only: an
  // absent header is not a leak. A <meta name="referrer"> in the page overrides the header.
  const referrer = effectiveReferrerPolicy(headers["referrer-policy"], html);
  if (LEAKY_REFERRER_POLICIES.has(referrer.policy)) {
    findings.push(
      f({
        check_id: "app.security_headers.referrer_policy_weak",
        severity: "low",
        controls: CONTROLS.transportEncryption,
        title: `Referrer-Policy "${referrer.policy}" leaks full URLs`,
        detail: `Page addresses (which can name a condition, a provider or an appointment) are sent to every third party the pages load from or link to (policy set by the ${referrer.source === "meta" ? '<meta name="referrer"> element' : "Referrer-Policy header"}).`,
        evidence: {
          url: page,
          "referrer-policy": headers["referrer-policy"] ?? null,
          effective: referrer.policy,
          set_by: referrer.source,
        },
        remediation:
          'Send "Referrer-Policy: strict-origin-when-cross-origin" (or no-referrer), or remove the weaker policy so the browser default applies.',
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
      findings: evaluateSecurityHeaders(ctx.target.siteHost, https.response.url, headers, https.response.body),
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
