import { practicePage } from "../html.js";
import { GOOGLE_TAG_MANAGER } from "../tracker-snippets.js";
import type { PracticeSpec } from "../types.js";

const NAME = "Summit Behavioral Health";
const NAV = [
  ["/about", "About"],
  ["/appointments/request", "Book an appointment"],
] as const;
const FOOTER = [["/privacy-policy", "Privacy Policy"]] as const;

/**
 * Subtler problems: an SPF policy over the 10-lookup limit through its includes, DMARC applied to 25% of mail, a
 * certificate issued for another name, SQL Server reachable, Google Tag Manager on the appointment request page,
 * and a privacy policy but no Notice of Privacy Practices.
 */
export const summit: PracticeSpec = {
  npiPrefix: "143928576",
  name: NAME,
  domain: "summit-behavioral.test",
  websiteHost: "www.summit-behavioral.test",
  hostOctet: 5,
  zone: (address, keys) => [
    { name: "summit-behavioral.test", type: "A", address },
    { name: "www.summit-behavioral.test", type: "A", address },
    { name: "summit-behavioral.test", type: "MX", exchange: "mx1.mailhost.test", priority: 10 },
    {
      name: "summit-behavioral.test",
      type: "TXT",
      text: "v=spf1 include:_spf.mailhost.test include:spf.crm-mailer.test include:spf.newsletter.test include:spf.billing-notices.test a mx -all",
    },
    {
      name: "_dmarc.summit-behavioral.test",
      type: "TXT",
      text: "v=DMARC1; p=quarantine; pct=25; rua=mailto:dmarc@summit-behavioral.test",
    },
    { name: "s1._domainkey.summit-behavioral.test", type: "TXT", text: `v=DKIM1; k=rsa; p=${keys.rsa2048}` },
    { name: "_mta-sts.summit-behavioral.test", type: "TXT", text: "v=STSv1; id=2026010101" },
    {
      name: "_smtp._tls.summit-behavioral.test",
      type: "TXT",
      text: "v=TLSRPTv1; rua=mailto:tlsrpt@summit-behavioral.test",
    },
  ],
  // The certificate of the practice's old brand, never reissued for the new name.
  certificate: { hosts: ["summit-bh.test", "www.summit-bh.test"], days: 397, issuedDaysAgo: 60 },
  site: {
    tlsMinVersion: "TLSv1.2",
    tlsMaxVersion: "TLSv1.3",
    headers: {
      "strict-transport-security": "max-age=31536000",
      "x-frame-options": "SAMEORIGIN",
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
    },
    plainHttp: "redirect",
    listeners: [1433],
    pages: {
      "/": {
        html: practicePage({
          practice: NAME,
          title: "Counseling and psychiatry",
          heading: "Summit Behavioral Health",
          body: "<p>Individual therapy, couples counseling and medication management.</p>",
          nav: NAV,
          footer: FOOTER,
        }),
      },
      "/about": {
        html: practicePage({
          practice: NAME,
          title: "About us",
          heading: "About us",
          body: "<p>Licensed clinicians since 2009.</p>",
          nav: NAV,
          footer: FOOTER,
        }),
      },
      "/appointments/request": {
        html: practicePage({
          practice: NAME,
          title: "Book an appointment",
          heading: "Request an appointment",
          head: GOOGLE_TAG_MANAGER,
          body: `<form action="/appointments/request" method="post">
        <label>Name <input name="name"></label>
        <label>Phone <input name="phone" type="tel"></label>
        <label>What would you like help with? <textarea name="concern"></textarea></label>
        <button>Request</button>
      </form>`,
          nav: NAV,
          footer: FOOTER,
        }),
      },
      "/privacy-policy": {
        html: practicePage({
          practice: NAME,
          title: "Privacy Policy",
          heading: "Website Privacy Policy",
          body: "<p>We use cookies to improve your experience.</p>",
          nav: NAV,
          footer: FOOTER,
        }),
      },
    },
  },
  // A Windows front desk backed up by Windows Server Backup: backups recent, no system shown to hold ePHI and no
  // restore test recorded; its Security log is the stock 20 MB and its clock runs free. Both requirements partial.
  internal: {
    persona: "win32-frontdesk",
    restoreTests: [],
    expected: { backup_restore: "partial", audit_trail: "partial" },
  },
  expected: {
    grades: ["D"],
    findings: [
      "email.spf.too_many_lookups",
      "email.dmarc.partial_pct",
      "app.certificate.hostname_mismatch",
      "app.exposed_services.mssql",
      "privacy.trackers.authenticated_page",
      "privacy.notice.npp_missing",
    ],
  },
};
