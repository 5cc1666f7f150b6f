import { definePolicy, officer, workforce } from "./policy.js";

/** Policies 21–24: breach notification (Subpart D), uses and disclosures, patient rights, documentation. */
export const PRIVACY_BREACH_POLICIES = [
  definePolicy({
    number: 21,
    slug: "breach-notification",
    title: "Breach Notification",
    citations: [
      "164.402",
      "164.404(a)",
      "164.404(b)",
      "164.404(c)",
      "164.404(d)",
      "164.406",
      "164.408(b)",
      "164.408(c)",
      "164.410",
      "164.412",
      "164.414",
    ],
    purpose:
      "To assess every impermissible use or disclosure of PHI and to notify individuals, the Secretary and, where required, the media of breaches of unsecured PHI (45 CFR Part 164 Subpart D, 164.402 to 164.414).",
    policy: () => [
      "An impermissible use or disclosure of PHI is presumed a breach unless a documented risk assessment of at least four factors shows a low probability that the PHI has been compromised: the nature and extent of the PHI, the unauthorized person, whether it was actually acquired or viewed, and the extent of mitigation (164.402).",
      "Individuals are notified without unreasonable delay and no later than 60 calendar days after discovery (164.404(b)), by first-class mail or email if agreed, with the content 164.404(c) requires (164.404(d)).",
      "Breaches of 500 or more individuals are reported to the Secretary at the same time (164.408(b)); smaller ones are logged and reported within 60 days after the end of the calendar year (164.408(c)).",
      "When more than 500 residents of a State or jurisdiction are affected, prominent media outlets serving it are notified within 60 days (164.406).",
      "A law enforcement request to delay notice is honoured as 164.412 provides; business associates report breaches to the practice under 164.410.",
      "The practice keeps the documentation that all notices were made, or that an event was not a breach (164.414).",
    ],
    procedures: (f) => [
      `${officer(f, "privacy_officer")} records the incident and the four-factor assessment in HCS the day it is discovered; HCS computes each notice's due date from the discovery date.`,
      "Notices sent are recorded with their dates; an overdue notice is a finding until it is sent.",
    ],
  }),
  definePolicy({
    number: 22,
    slug: "uses-disclosures-minimum-necessary",
    title: "Uses and Disclosures and Minimum Necessary",
    citations: ["164.502(b)", "164.514(d)", "164.530(c)"],
    purpose:
      "To use and disclose PHI only as the Privacy Rule permits and to limit it to the minimum necessary (164.502(b), 164.514(d)).",
    policy: (f) => [
      `${workforce(f)} use and disclose PHI only for treatment, payment and health care operations, with the patient's authorization, or as the Privacy Rule otherwise permits.`,
      "Routine disclosures follow standard protocols limited to the minimum necessary; non-routine requests are reviewed individually (164.514(d)).",
      "Minimum necessary does not apply to disclosures to a provider for treatment or to the individual.",
      "Reasonable safeguards protect PHI from incidental disclosure (164.530(c)).",
    ],
    procedures: (f) => [`Questions about a disclosure go to ${officer(f, "privacy_officer")} before PHI is released.`],
  }),
  definePolicy({
    number: 23,
    slug: "patient-rights",
    title: "Patient Rights: Access, Amendment and Accounting of Disclosures",
    citations: ["164.524", "164.526", "164.528"],
    purpose: "To honour individuals' rights to access, amend and receive an accounting of disclosures of their PHI.",
    policy: () => [
      "Individuals may inspect and obtain a copy of their PHI in the designated record set, in the form requested if readily producible, within 30 days of the request (one 30-day extension with written notice) for a reasonable cost-based fee (164.524).",
      "Requests to amend are acted on within 60 days; a denial is written and explains the right to submit a statement of disagreement (164.526).",
      "An accounting of disclosures for the six years before the request is provided within 60 days (164.528).",
    ],
    procedures: (f) => [`Requests are logged and tracked to completion by ${officer(f, "privacy_officer")}.`],
  }),
  definePolicy({
    number: 24,
    slug: "documentation-retention",
    title: "Documentation and Retention",
    citations: [
      "164.316(a)",
      "164.316(b)(1)",
      "164.316(b)(2)(i)",
      "164.316(b)(2)(ii)",
      "164.316(b)(2)(iii)",
      "164.530(i)",
      "164.530(j)",
    ],
    purpose:
      "To maintain the policies, procedures and required records in written (which may be electronic) form (164.316(b)(1), 164.530(j)).",
    policy: () => [
      "Policies, procedures, and every action, activity or assessment they require are documented and kept for six years from creation or last effective date, whichever is later (164.316(b)(2)(i), 164.530(j)).",
      "Documentation is available to those responsible for implementing it (164.316(b)(2)(ii)).",
      "Documentation is reviewed at least every 12 months and updated after environmental or operational changes (164.316(b)(2)(iii)).",
    ],
    procedures: () => [
      "HCS keeps every version of each policy; superseded versions remain downloadable for the retention period.",
    ],
  }),
];
