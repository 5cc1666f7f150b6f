import { definePolicy, ephiSystems, officer, phiVendors, workforce } from "./policy.js";

/** Policies 1–11: the administrative safeguards of 164.308. */
export const SECURITY_MANAGEMENT_POLICIES = [
  definePolicy({
    number: 1,
    slug: "security-management-risk-analysis",
    title: "Security Management Process and Risk Analysis",
    citations: ["164.308(a)(1)", "164.308(a)(1)(ii)(A)", "164.308(a)(1)(ii)(B)"],
    purpose:
      "To prevent, detect, contain and correct security violations by assessing the risks to the confidentiality, integrity and availability of ePHI and reducing them to a reasonable and appropriate level (45 CFR 164.308(a)(1)).",
    policy: (f) => [
      `${f.name} conducts an accurate and thorough risk analysis of the ePHI it creates, receives, maintains or transmits, at least every 12 months and whenever systems, locations or vendors change materially (164.308(a)(1)(ii)(A)).`,
      `The analysis covers ${ephiSystems(f)}, and follows NIST SP 800-30 as HHS guidance applies it: threats, vulnerabilities, likelihood, impact and risk level.`,
      "Identified risks are tracked in a risk register and reduced through a documented, prioritized risk management plan with owners and dates (164.308(a)(1)(ii)(B)).",
      `External and internal vulnerability scans (HCS) feed the analysis; their findings are evidence, not a substitute for it.`,
    ],
    procedures: (f) => [
      `${officer(f, "security_officer")} schedules the annual analysis and answers the risk-assessment questionnaire with the people who run each system.`,
      "Inventory where ePHI is stored, received, maintained and transmitted, including portable media and vendors.",
      "Rate each threat and vulnerability pair for likelihood and impact on the documented scales; record controls in place and missing.",
      "Approve a remediation plan for every moderate or higher risk; review progress quarterly.",
      "Keep the analysis, the plan and the evidence for six years (164.316(b)(2)(i)).",
    ],
  }),
  definePolicy({
    number: 2,
    slug: "sanctions",
    title: "Sanctions",
    citations: ["164.308(a)(1)(ii)(C)", "164.530(e)"],
    purpose:
      "To apply appropriate sanctions against workforce members who fail to comply with the practice's security and privacy policies (164.308(a)(1)(ii)(C), 164.530(e)).",
    policy: (f) => [
      `Sanctions apply to ${workforce(f)}, including employed and contracted clinicians, students and volunteers.`,
      "Sanctions are proportionate to the violation's nature, intent and harm: retraining, written warning, suspension of access, suspension, termination, and referral to licensing boards or law enforcement where required.",
      "No sanction is applied against a person for filing a complaint, reporting a suspected violation in good faith, or cooperating in an investigation.",
    ],
    procedures: (f) => [
      `Suspected violations are reported to ${officer(f, "security_officer")} or ${officer(f, "privacy_officer")}.`,
      "The official investigates, documents the facts and the sanction applied, and informs the workforce member in writing.",
      "Sanction records are kept for six years (164.530(j)).",
    ],
  }),
  definePolicy({
    number: 3,
    slug: "information-system-activity-review",
    title: "Information System Activity Review",
    citations: ["164.308(a)(1)(ii)(D)", "164.312(b)", "164.308(a)(5)(ii)(C)"],
    purpose:
      "To regularly review records of information system activity — audit logs, access reports and security incident tracking reports (164.308(a)(1)(ii)(D)).",
    policy: (f) => [
      `Audit logs of ${ephiSystems(f)} record log-ins, failed log-ins, access to patient records, exports and administrative changes (164.312(b)).`,
      "Logs are reviewed at least monthly, and immediately after a suspected incident; failed log-in patterns are monitored (164.308(a)(5)(ii)(C)).",
      "Logs are protected from alteration and kept for six years.",
    ],
    procedures: (f) => [
      `${officer(f, "security_officer")} or a delegate runs the EHR access report and the system log review each month.`,
      "Unusual access (a patient record opened by someone with no treatment relationship, bulk exports, access after hours) is investigated under Policy 8.",
      "Each review is recorded with its date, reviewer, scope and outcome.",
    ],
  }),
  definePolicy({
    number: 4,
    slug: "assigned-security-responsibility",
    title: "Assigned Security Responsibility",
    citations: ["164.308(a)(2)", "164.530(i)"],
    purpose:
      "To identify the security official responsible for developing and implementing the security policies and procedures (164.308(a)(2)).",
    policy: (f) => [
      `${officer(f, "security_officer")} is responsible for the security of ePHI at ${f.name}${f.profile.security_officer?.email ? ` (contact: ${f.profile.security_officer.email})` : ""}.`,
      `Privacy responsibilities rest with ${officer(f, "privacy_officer")}.`,
      "The official has the authority and resources to carry out this role and reports to practice leadership at least annually.",
    ],
    procedures: () => [
      "The appointment is in writing, and a successor is named within 30 days of a vacancy.",
      "The official's duties: risk analysis and management, policies, training, incident response, BAAs, evaluation.",
    ],
  }),
  definePolicy({
    number: 5,
    slug: "workforce-security",
    title: "Workforce Security",
    citations: ["164.308(a)(3)", "164.308(a)(3)(ii)(A)", "164.308(a)(3)(ii)(B)", "164.308(a)(3)(ii)(C)"],
    purpose:
      "To ensure that workforce members have appropriate access to ePHI and to prevent those who should not have access from obtaining it (164.308(a)(3)).",
    policy: (f) => [
      `Access for ${workforce(f)} is authorized and supervised according to their role (164.308(a)(3)(ii)(A)).`,
      "Before access is granted, a clearance procedure confirms that the person's access is appropriate (164.308(a)(3)(ii)(B)).",
      "When employment or engagement ends, access is removed the same day: accounts disabled, badges, keys and devices returned (164.308(a)(3)(ii)(C)).",
    ],
    procedures: () => [
      "The hiring manager requests access by role; the Security Official approves and records it.",
      "On termination the manager notifies the Security Official before the person's last shift; the official disables accounts and collects devices and records it.",
      "Access lists are reconciled against the roster each quarter.",
    ],
  }),
  definePolicy({
    number: 6,
    slug: "information-access-management",
    title: "Information Access Management",
    citations: ["164.308(a)(4)", "164.308(a)(4)(ii)(B)", "164.308(a)(4)(ii)(C)", "164.502(b)"],
    purpose: "To authorize access to ePHI consistent with the minimum necessary standard (164.308(a)(4), 164.502(b)).",
    policy: (f) => [
      `Access to ${ephiSystems(f)} is granted by role, limited to the minimum necessary for the job (164.308(a)(4)(ii)(B)).`,
      "Establishing, documenting, reviewing and modifying a user's access follows a documented request and approval (164.308(a)(4)(ii)(C)).",
    ],
    procedures: () => [
      "Role profiles (front desk, clinical, billing, administrator) define the access each role gets.",
      "Changes of role trigger an access review the same week.",
    ],
  }),
  definePolicy({
    number: 7,
    slug: "security-awareness-training",
    title: "Security Awareness and Training",
    citations: [
      "164.308(a)(5)",
      "164.308(a)(5)(ii)(A)",
      "164.308(a)(5)(ii)(B)",
      "164.308(a)(5)(ii)(C)",
      "164.308(a)(5)(ii)(D)",
      "164.530(b)",
    ],
    purpose:
      "To train the workforce in security and privacy, as necessary and appropriate to their functions (164.308(a)(5), 164.530(b)).",
    policy: (f) => [
      `${workforce(f)} complete HIPAA security and privacy training within 30 days of joining and every 12 months after.`,
      "Periodic security reminders are sent at least quarterly (164.308(a)(5)(ii)(A)).",
      "Training covers malicious software and phishing (164.308(a)(5)(ii)(B)), log-in monitoring (164.308(a)(5)(ii)(C)) and password management and MFA (164.308(a)(5)(ii)(D)).",
      "Completions are recorded (HCS training records) and kept for six years.",
    ],
    procedures: (f) => [
      `${officer(f, "security_officer")} keeps the roster current and reviews the training status monthly.`,
      "Overdue members are reminded; access is suspended if training is 30 days overdue.",
    ],
  }),
  definePolicy({
    number: 8,
    slug: "security-incident-procedures",
    title: "Security Incident Procedures",
    citations: ["164.308(a)(6)", "164.308(a)(6)(ii)", "164.530(f)"],
    purpose:
      "To identify and respond to suspected or known security incidents, mitigate their harmful effects and document them and their outcomes (164.308(a)(6)(ii)).",
    policy: (f) => [
      `Every workforce member reports a suspected incident at once to ${officer(f, "security_officer")}.`,
      "Each incident is recorded, contained, investigated and documented with its outcome; harmful effects are mitigated to the extent practicable (164.530(f)).",
      "An incident involving PHI is assessed under Policy 21 to determine whether it is a breach of unsecured PHI.",
    ],
    procedures: () => [
      "Contain: isolate affected devices, disable compromised accounts, preserve logs.",
      "Record the incident in HCS (POST /v1/incidents) the day it is discovered; the discovery date starts the notification clock.",
      "Eradicate and recover; review the risk analysis for the weakness exploited.",
    ],
  }),
  definePolicy({
    number: 9,
    slug: "contingency-plan",
    title: "Contingency Plan: Backup, Disaster Recovery and Emergency Mode",
    citations: [
      "164.308(a)(7)",
      "164.308(a)(7)(ii)(A)",
      "164.308(a)(7)(ii)(B)",
      "164.308(a)(7)(ii)(C)",
      "164.308(a)(7)(ii)(D)",
      "164.308(a)(7)(ii)(E)",
      "164.310(a)(2)(i)",
    ],
    purpose: "To respond to an emergency or other occurrence that damages systems containing ePHI (164.308(a)(7)).",
    policy: (f) => [
      `Retrievable exact copies of ePHI on ${ephiSystems(f)} are backed up at least daily, with a copy kept offline or immutable (164.308(a)(7)(ii)(A)).`,
      "The disaster recovery plan restores ePHI within 72 hours (164.308(a)(7)(ii)(B)).",
      "An emergency mode operation plan keeps critical processes that protect ePHI running during an emergency (164.308(a)(7)(ii)(C)); facility access is maintained for restoration (164.310(a)(2)(i)).",
      "Restores are tested at least annually and the plan revised after each test (164.308(a)(7)(ii)(D)); applications and data are ranked by criticality (164.308(a)(7)(ii)(E)).",
    ],
    procedures: () => [
      "Backup success is checked each business day; a failure is fixed within one business day.",
      "A test restore of the EHR database is run and recorded every year.",
      "Downtime procedures (paper forms, read-only EHR copy) are kept at each front desk.",
    ],
  }),
  definePolicy({
    number: 10,
    slug: "evaluation",
    title: "Evaluation",
    citations: ["164.308(a)(8)"],
    purpose:
      "To perform periodic technical and non-technical evaluations of how well the security policies meet the Security Rule (164.308(a)(8)).",
    policy: () => [
      "A technical and non-technical evaluation is performed every 12 months and after environmental or operational changes affecting ePHI.",
      "The evaluation uses the compliance state of the 13 requirements, the external and internal scans, and a review of these policies.",
    ],
    procedures: (f) => [
      `${officer(f, "security_officer")} presents the evaluation and the corrective actions to practice leadership.`,
    ],
  }),
  definePolicy({
    number: 11,
    slug: "business-associate-contracts",
    title: "Business Associate Contracts",
    citations: ["164.308(b)(1)", "164.308(b)(3)", "164.502(e)", "164.504(e)", "164.410"],
    purpose:
      "To obtain satisfactory assurances, in a written contract, that business associates will safeguard PHI (164.308(b)(1), 164.504(e)).",
    policy: (f) => {
      const vendors = phiVendors(f);
      return [
        "No PHI is disclosed to a business associate before a business associate agreement (BAA) meeting 164.504(e) is signed (164.502(e)).",
        vendors.length > 0
          ? `Business associates with PHI access on record: ${vendors.map((v) => `${v.name}${v.services.length ? ` (${v.services.join(", ")})` : ""}`).join("; ")}.`
          : "No business associate with PHI access is recorded yet; each must be recorded before PHI is shared.",
        "Each BAA requires the associate to report breaches of unsecured PHI without unreasonable delay and within 60 days of discovery (164.410), and to bind its subcontractors.",
      ];
    },
    procedures: () => [
      "Record every vendor, its services and PHI access (hipaa.baa); the BAA's signed and expiry dates are tracked.",
      "Renew BAAs before expiry; on termination, PHI is returned or destroyed.",
    ],
  }),
];
