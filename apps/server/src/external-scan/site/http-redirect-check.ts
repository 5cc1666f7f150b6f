import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import type { PageFetch } from "./page-fetch.js";

/** Whether plain HTTP sends visitors to HTTPS (pure); [] also when port 80 serves nothing at all. */
export function evaluateHttpRedirect(siteHost: string, http: Extract<PageFetch, { ok: true }>): FindingParsed[] {
  if (new URL(http.response.url).protocol === "https:") return [];
  return [
    externalFinding({
      category: "application_security",
      controls: CONTROLS.transportEncryption,
      subject: siteHost,
      host: siteHost,
      check_id: "app.http_redirect.missing",
      severity: "medium",
      title: "Plain HTTP is not redirected to HTTPS",
      detail: `http://${siteHost}/ answers with status ${http.response.status} over plain HTTP instead of redirecting, so visitors who type the address or follow an old link stay unencrypted.`,
      evidence: { chain: http.chain.map((h) => ({ ...h })) },
      remediation: "Answer every plain-HTTP request with a 301 redirect to the same path over HTTPS, and add HSTS.",
    }),
  ];
}

export const httpRedirectCheck: ExternalCheck = {
  id: "app.http_redirect",
  category: "application_security",
  title: "HTTP to HTTPS redirect",
  subject: "site",
  timeoutMs: 20_000,
  async run(ctx): Promise<CheckOutcome> {
    const [http, https] = await Promise.all([ctx.site.httpHome(), ctx.site.httpsHome()]);
    if (http.ok) {
      return {
        status: "ok",
        findings: evaluateHttpRedirect(ctx.target.siteHost, http),
        facts: { http: "served", chain: http.chain.map((h) => ({ ...h })) },
      };
    }
    // Port 80 closed or silent while HTTPS works: nothing is served in cleartext, which is fine.
    const closed = http.code === "connection_refused" || http.code === "timeout";
    if (closed && https.ok) return { status: "ok", facts: { http: "not served", error: http.code } };
    return { status: http.status, detail: http.detail };
  },
};
