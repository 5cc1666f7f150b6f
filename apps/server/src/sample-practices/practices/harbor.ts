import { practicePage } from "../html.js";
import type { PracticeSpec } from "../types.js";

const NAME = "Harbor Dental Care";
const NAV = [
  ["/new-patient-forms", "New patient forms"],
  ["/insurance", "Insurance"],
] as const;
const FOOTER = [["/notice-of-privacy-practices", "Notice of Privacy Practices"]] as const;

/**
 * A practice with three serious but different weaknesses: an SPF record that authorizes everyone (+all), an
 * expired certificate, and a new-patient intake form that posts to plain HTTP. DKIM uses a 1024-bit key.
 */
export const harbor: PracticeSpec = {
  npiPrefix: "190837465",
  name: NAME,
  domain: "harbor-dental.test",
  websiteHost: "harbor-dental.test",
  hostOctet: 4,
  zone: (address, keys) => [
    { name: "harbor-dental.test", type: "A", address },
    { name: "www.harbor-dental.test", type: "A", address },
    { name: "harbor-dental.test", type: "MX", exchange: "mx1.mailhost.test", priority: 10 },
    { name: "harbor-dental.test", type: "TXT", text: "v=spf1 include:_spf.mailhost.test +all" },
    {
      name: "_dmarc.harbor-dental.test",
      type: "TXT",
      text: "v=DMARC1; p=quarantine; rua=mailto:postmaster@harbor-dental.test",
    },
    { name: "google._domainkey.harbor-dental.test", type: "TXT", text: `v=DKIM1; k=rsa; p=${keys.rsa1024}` },
  ],
  // Issued 400 days ago for 397 days: it expired three days before the sample started.
  // Made by hand with openssl on the server years ago: no OCSP or CRL pointers.
  certificate: { days: 397, issuedDaysAgo: 400, revocationInfo: false },
  site: {
    tlsMinVersion: "TLSv1.2",
    tlsMaxVersion: "TLSv1.3",
    headers: {
      "strict-transport-security": "max-age=31536000; includeSubDomains",
      "x-frame-options": "SAMEORIGIN",
      "x-content-type-options": "nosniff",
      "referrer-policy": "same-origin",
    },
    plainHttp: "redirect",
    listeners: [],
    pages: {
      "/": {
        html: practicePage({
          practice: NAME,
          title: "Family and cosmetic dentistry",
          heading: "Harbor Dental Care",
          body: "<p>Cleanings, fillings, crowns and implants.</p>",
          nav: NAV,
          footer: FOOTER,
        }),
      },
      "/new-patient-forms": {
        html: practicePage({
          practice: NAME,
          title: "New patient forms",
          heading: "New patient intake",
          body: `<form action="http://harbor-dental.test/forms/intake.php" method="post">
        <label>Full name <input name="full_name"></label>
        <label>Date of birth <input name="date_of_birth" type="date"></label>
        <label>Insurance provider <input name="insurance_provider"></label>
        <label>Current medications <textarea name="medications"></textarea></label>
        <button>Submit</button>
      </form>`,
          nav: NAV,
          footer: FOOTER,
        }),
      },
      "/insurance": {
        html: practicePage({
          practice: NAME,
          title: "Insurance",
          heading: "Insurance we accept",
          body: "<p>Most PPO plans.</p>",
          nav: NAV,
          footer: FOOTER,
        }),
      },
      "/notice-of-privacy-practices": {
        html: practicePage({
          practice: NAME,
          title: "Notice of Privacy Practices",
          heading: "Notice of Privacy Practices",
          body: "<p>Your information. Your rights. Our responsibilities.</p>",
          nav: NAV,
          footer: FOOTER,
        }),
      },
    },
  },
  // A kiosk on which the scanner could read nothing (no tools, no privileges). Both requirements unknown.
  internal: {
    persona: "linux-bare",
    restoreTests: [],
    expected: { backup_restore: "unknown", audit_trail: "unknown" },
  },
  expected: {
    grades: ["F"],
    findings: [
      "email.spf.pass_all",
      "email.dkim.short_key",
      "app.certificate.expired",
      "app.certificate.no_revocation_info",
      "app.security_headers.csp_missing",
      "privacy.forms.cleartext_patient_form",
    ],
  },
};
