import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import type { PageFetch } from "./page-fetch.js";
import { redactUrl } from "./urls.js";

/**
 * Whether the website is usable over HTTPS (pure). Returns null when neither HTTPS nor HTTP answered: then
 * nothing can be said and the check reports the HTTPS failure instead.
 */
export function evaluateHttps(siteHost: string, https: PageFetch, http: PageFetch): FindingParsed[] | null {
  const base = {
    category: "application_security",
    controls: CONTROLS.transportIntegrity,
    subject: siteHost,
    host: siteHost,
  } as const;
  if (https.ok) {
    if (new URL(https.response.url).protocol === "http:") {
      return [
        externalFinding({
          ...base,
          check_id: "app.https.downgrade",
          severity: "high",
          title: "HTTPS redirects visitors to plain HTTP",
          detail:
            "Visitors who arrive over HTTPS are sent to an unencrypted page, where anything they read or submit can be read or altered in transit.",
          evidence: { chain: https.chain.map((h) => ({ ...h })) },
          remediation: "Serve the site over HTTPS only and redirect HTTP to HTTPS, never the other way.",
        }),
      ];
    }
    return [];
  }
  if (https.status !== "refused" && http.ok) {
    return [
      externalFinding({
        ...base,
        check_id: "app.https.not_offered",
        severity: "high",
        title: "Website is not available over HTTPS",
        detail: `${siteHost} answers over plain HTTP but not over HTTPS (${https.code}): every page, form and login travels unencrypted.`,
        evidence: {
          https_error: https.code,
          http_status: http.response.status,
          http_url: redactUrl(http.response.url),
        },
        remediation:
          "Install a certificate (free from Let's Encrypt or the hosting provider), serve the site over HTTPS and redirect HTTP to it.",
      }),
    ];
  }
  return null;
}

export const httpsCheck: ExternalCheck = {
  id: "app.https",
  category: "application_security",
  title: "HTTPS availability",
  subject: "site",
  timeoutMs: 20_000,
  async run(ctx): Promise<CheckOutcome> {
    const [https, http] = await Promise.all([ctx.site.httpsHome(), ctx.site.httpHome()]);
    const findings = evaluateHttps(ctx.target.siteHost, https, http);
    if (findings === null && !https.ok) return { status: https.status, detail: https.detail };
    return {
      status: "ok",
      findings: findings ?? [],
      facts: https.ok
        ? {
            reachable: true,
            final_url: redactUrl(https.response.url),
            status: https.response.status,
            chain: https.chain.map((h) => ({ ...h })),
          }
        : { reachable: false, error: https.code },
    };
  },
};
