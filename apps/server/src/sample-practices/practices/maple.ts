import { practicePage } from "../html.js";
import { GOOGLE_TAG, META_PIXEL } from "../tracker-snippets.js";
import type { PracticeSpec } from "../types.js";

const NAME = "Maple Street Pediatrics";
const NAV = [
  ["/our-doctors", "Our doctors"],
  ["/new-patients", "New patients"],
  ["/contact", "Contact"],
] as const;
const FOOTER = [["/hipaa-notice", "HIPAA Notice of Privacy Practices"]] as const;

/**
 * The typical practice: mail authentication half done (SPF ~all, DMARC p=none without reports, no DKIM), a site
 * with HSTS but no other security headers and a version banner, and analytics plus a Meta Pixel on public pages
 * (kept off the new-patient form).
 */
export const maple: PracticeSpec = {
  npiPrefix: "128374650",
  name: NAME,
  domain: "maple-pediatrics.test",
  websiteHost: "www.maple-pediatrics.test",
  hostOctet: 2,
  zone: (address) => [
    { name: "maple-pediatrics.test", type: "A", address },
    { name: "www.maple-pediatrics.test", type: "CNAME", target: "maple-pediatrics.test" },
    { name: "maple-pediatrics.test", type: "MX", exchange: "mx1.mailhost.test", priority: 10 },
    { name: "maple-pediatrics.test", type: "TXT", text: "v=spf1 include:_spf.mailhost.test ~all" },
    { name: "_dmarc.maple-pediatrics.test", type: "TXT", text: "v=DMARC1; p=none" },
  ],
  certificate: { days: 397, issuedDaysAgo: 120 },
  site: {
    tlsMinVersion: "TLSv1.2",
    tlsMaxVersion: "TLSv1.3",
    // nginx's default ssl_ciphers: static-RSA and CBC suites (Camellia and ARIA too) beside the ECDHE ones.
    ciphers: "HIGH:!aNULL:!MD5",
    headers: {
      server: "nginx/1.24.0",
      "strict-transport-security": "max-age=31536000",
      "x-content-type-options": "nosniff",
    },
    plainHttp: "redirect",
    listeners: [],
    pages: {
      "/": {
        setCookies: ["site_prefs=en; Path=/; Secure"],
        html: practicePage({
          practice: NAME,
          title: "Pediatric care in Maple Street",
          heading: "Welcome to Maple Street Pediatrics",
          head: `${GOOGLE_TAG}\n${META_PIXEL}`,
          body: "<p>Well-child visits, sick visits and vaccinations from birth to 18.</p>",
          nav: NAV,
          footer: FOOTER,
        }),
      },
      "/our-doctors": {
        html: practicePage({
          practice: NAME,
          title: "Our doctors",
          heading: "Our doctors",
          head: GOOGLE_TAG,
          body: "<p>Board-certified pediatricians.</p>",
          nav: NAV,
          footer: FOOTER,
        }),
      },
      "/new-patients": {
        html: practicePage({
          practice: NAME,
          title: "New patients",
          heading: "New patient registration",
          body: `<form action="https://www.maple-pediatrics.test/new-patients/submit" method="post">
        <label>Child's name <input name="child_name"></label>
        <label>Date of birth <input name="dob" type="date"></label>
        <label>Insurance member ID <input name="insurance_member_id"></label>
        <button>Register</button>
      </form>`,
          nav: NAV,
          footer: FOOTER,
        }),
      },
      "/contact": {
        html: practicePage({
          practice: NAME,
          title: "Contact",
          heading: "Contact us",
          head: GOOGLE_TAG,
          body: "<p>Call (555) 010-0199.</p>",
          nav: NAV,
          footer: FOOTER,
        }),
      },
      "/hipaa-notice": {
        html: practicePage({
          practice: NAME,
          title: "Notice of Privacy Practices",
          heading: "Notice of Privacy Practices",
          body: "<p>Effective January 1, 2026.</p>",
          nav: NAV,
          footer: FOOTER,
        }),
      },
    },
  },
  expected: {
    grades: ["C", "D"],
    findings: [
      "email.spf.softfail_all",
      "email.dmarc.policy_none",
      "email.dmarc.no_reports",
      "email.dkim.not_found",
      "email.mta_sts.missing",
      "app.security_headers.csp_missing",
      "app.server_disclosure.version",
      "app.tls_ciphers.no_forward_secrecy",
      "app.tls_ciphers.cbc_mode",
      "privacy.trackers.public_page",
    ],
  },
};
