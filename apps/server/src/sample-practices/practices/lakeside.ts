import { practicePage } from "../html.js";
import type { PracticeSpec } from "../types.js";

const NAME = "Lakeside Family Medicine";
const NAV = [
  ["/services", "Services"],
  ["/appointments", "Request an appointment"],
  ["/portal/login", "Patient portal"],
] as const;
const FOOTER = [
  ["/notice-of-privacy-practices", "Notice of Privacy Practices"],
  ["/privacy", "Website privacy policy"],
] as const;
const page = (title: string, heading: string, body: string) =>
  practicePage({ practice: NAME, title, heading, body, nav: NAV, footer: FOOTER });

/** The well-run practice: enforced DMARC, DKIM, MTA-STS, modern TLS only, full security headers, no trackers. */
export const lakeside: PracticeSpec = {
  npiPrefix: "174839201",
  name: NAME,
  domain: "lakeside-family.test",
  websiteHost: "www.lakeside-family.test",
  hostOctet: 1,
  zone: (address, keys) => [
    { name: "lakeside-family.test", type: "A", address },
    { name: "www.lakeside-family.test", type: "A", address },
    { name: "lakeside-family.test", type: "MX", exchange: "mx1.mailhost.test", priority: 10 },
    { name: "lakeside-family.test", type: "MX", exchange: "mx2.mailhost.test", priority: 20 },
    { name: "lakeside-family.test", type: "TXT", text: "v=spf1 include:_spf.mailhost.test -all" },
    { name: "lakeside-family.test", type: "TXT", text: "google-site-verification=sample-verification-token" },
    {
      name: "_dmarc.lakeside-family.test",
      type: "TXT",
      text: "v=DMARC1; p=reject; sp=reject; adkim=s; aspf=s; rua=mailto:dmarc-reports@lakeside-family.test",
    },
    { name: "selector1._domainkey.lakeside-family.test", type: "TXT", text: `v=DKIM1; k=rsa; p=${keys.rsa2048}` },
    { name: "_mta-sts.lakeside-family.test", type: "TXT", text: "v=STSv1; id=20260301T120000" },
    {
      name: "_smtp._tls.lakeside-family.test",
      type: "TXT",
      text: "v=TLSRPTv1; rua=mailto:tls-reports@lakeside-family.test",
    },
  ],
  certificate: { days: 365, issuedDaysAgo: 30 },
  site: {
    tlsMinVersion: "TLSv1.2",
    tlsMaxVersion: "TLSv1.3",
    // NIST SP 800-52r2's own list: ECDHE with AES-GCM for TLS 1.2, the AES-GCM suites of TLS 1.3.
    ciphers: [
      "TLS_AES_256_GCM_SHA384",
      "TLS_AES_128_GCM_SHA256",
      "ECDHE-RSA-AES128-GCM-SHA256",
      "ECDHE-RSA-AES256-GCM-SHA384",
    ].join(":"),
    headers: {
      "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
      "content-security-policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'",
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
    },
    plainHttp: "redirect",
    listeners: [],
    pages: {
      "/": {
        html: page(
          "Family medicine on the lake",
          "Care for every generation",
          "<p>Same-week visits for children and adults. New patients welcome.</p>",
        ),
      },
      "/services": {
        html: page("Services", "Our services", "<ul><li>Annual physicals</li><li>Vaccinations</li></ul>"),
      },
      "/appointments": {
        html: page(
          "Request an appointment",
          "Request an appointment",
          `<form action="/appointments/request" method="post">
        <label>Name <input name="patient_name" autocomplete="name"></label>
        <label>Date of birth <input name="dob" type="date"></label>
        <label>Phone <input name="phone" type="tel"></label>
        <label>Reason for visit <textarea name="reason"></textarea></label>
        <button>Send request</button>
      </form>`,
        ),
      },
      "/portal/login": {
        setCookies: ["__Host-portal_session=7c1f0e; Path=/; Secure; HttpOnly; SameSite=Strict"],
        html: page(
          "Patient portal sign in",
          "Patient portal",
          `<form action="/portal/session" method="post">
        <label>Username <input name="username" autocomplete="username"></label>
        <label>Password <input name="password" type="password" autocomplete="current-password"></label>
        <button>Sign in</button>
      </form>`,
        ),
      },
      "/notice-of-privacy-practices": {
        html: page(
          "Notice of Privacy Practices",
          "Notice of Privacy Practices",
          "<p>This notice describes how medical information about you may be used and disclosed.</p>",
        ),
      },
      "/privacy": {
        html: page("Website privacy policy", "Website privacy policy", "<p>We use no tracking technologies.</p>"),
      },
    },
  },
  // The well-run practice's EHR server: Veeam backs it up nightly, its restore was tested and recorded; persistent,
  // audited logs. Requirements 6 and 13 met.
  internal: {
    persona: "linux-ehr-server",
    restoreTests: [
      {
        days_ago: 40,
        system: "ehr-server",
        data_restored: "EHR database and scanned documents, restored to a spare server",
        time_to_restore_minutes: 190,
        outcome: "succeeded",
      },
    ],
    expected: { backup_restore: "met", audit_trail: "met" },
  },
  expected: { grades: ["A"], findings: [] },
};
