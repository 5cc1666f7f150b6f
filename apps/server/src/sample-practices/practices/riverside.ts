import { practicePage } from "../html.js";
import { GOOGLE_TAG, HOTJAR, META_PIXEL } from "../tracker-snippets.js";
import type { PracticeSpec } from "../types.js";

const NAME = "Riverside Orthopedic Clinic";
const NAV = [
  ["/services", "Services"],
  ["/patient-portal/login", "Patient Portal Login"],
] as const;

/**
 * The poor practice: no DMARC, SPF ?all, TLS 1.0 and 1.1 still on, an old IIS banner, a Meta Pixel and Hotjar
 * on the portal login page, no privacy notice, and something answering on the RDP port.
 */
export const riverside: PracticeSpec = {
  npiPrefix: "156473829",
  name: NAME,
  domain: "riverside-ortho.test",
  websiteHost: "www.riverside-ortho.test",
  hostOctet: 3,
  zone: (address) => [
    { name: "riverside-ortho.test", type: "A", address },
    { name: "www.riverside-ortho.test", type: "A", address },
    { name: "riverside-ortho.test", type: "MX", exchange: "mail.riverside-ortho.test", priority: 10 },
    { name: "mail.riverside-ortho.test", type: "A", address },
    { name: "riverside-ortho.test", type: "TXT", text: "v=spf1 a mx ?all" },
  ],
  // From the in-house CA of a 2012-era Windows domain, still signing with SHA-1.
  certificate: { days: 397, issuedDaysAgo: 200, signatureHash: "sha1" },
  site: {
    tlsMinVersion: "TLSv1",
    tlsMaxVersion: "TLSv1.2",
    headers: {
      server: "Microsoft-IIS/8.5",
      "x-powered-by": "ASP.NET",
      "x-aspnet-version": "4.0.30319",
    },
    plainHttp: "serve",
    listeners: [3389],
    pages: {
      "/": {
        html: practicePage({
          practice: NAME,
          title: "Orthopedic surgery and sports medicine",
          heading: "Riverside Orthopedic Clinic",
          head: GOOGLE_TAG,
          body: "<p>Joint replacement, sports injuries and physical therapy.</p>",
          nav: NAV,
          footer: [],
        }),
      },
      "/services": {
        html: practicePage({
          practice: NAME,
          title: "Services",
          heading: "Services",
          head: GOOGLE_TAG,
          body: "<p>Knee, hip and shoulder care.</p>",
          nav: NAV,
          footer: [],
        }),
      },
      "/patient-portal/login": {
        setCookies: ["ASP.NET_SessionId=3kq1x0; path=/; HttpOnly; SameSite=Lax"],
        html: practicePage({
          practice: NAME,
          title: "Patient Portal",
          heading: "Patient Portal Login",
          head: `${META_PIXEL}\n${HOTJAR}`,
          body: `<form action="/patient-portal/login" method="post">
        <label>Email <input name="email" type="email"></label>
        <label>Password <input name="password" type="password"></label>
        <button>Log in</button>
      </form>`,
          nav: NAV,
          footer: [],
        }),
      },
    },
  },
  // A Linux front desk with PostgreSQL and no backup at all, whose one restore attempt failed; its journal is kept in
  // memory only. Both requirements not met.
  internal: {
    persona: "linux-frontdesk",
    restoreTests: [
      {
        days_ago: 75,
        system: "frontdesk-01",
        data_restored: "PostgreSQL dump of the scheduling database",
        time_to_restore_minutes: 45,
        outcome: "failed",
      },
    ],
    expected: { backup_restore: "not_met", audit_trail: "not_met" },
  },
  expected: {
    grades: ["F"],
    findings: [
      "email.dmarc.missing",
      "email.spf.neutral_all",
      "app.tls_versions.legacy",
      "app.tls_ciphers.no_forward_secrecy",
      "app.certificate.weak_signature",
      "app.exposed_services.rdp",
      "app.server_disclosure.end_of_life",
      "app.http_redirect.missing",
      "privacy.trackers.authenticated_page",
      "privacy.notice.missing",
    ],
  },
};
