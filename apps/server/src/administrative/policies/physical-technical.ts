import { definePolicy, ephiSystems, officer, workforce } from "./policy.js";

/** Policies 12–20: the physical (164.310) and technical (164.312) safeguards. */
export const PHYSICAL_TECHNICAL_POLICIES = [
  definePolicy({
    number: 12,
    slug: "facility-access",
    title: "Facility Access Controls",
    citations: ["164.310(a)(1)", "164.310(a)(2)(i)", "164.310(a)(2)(ii)", "164.310(a)(2)(iii)", "164.310(a)(2)(iv)"],
    purpose:
      "To limit physical access to systems holding ePHI and the facilities they are in, while ensuring authorized access (164.310(a)(1)).",
    policy: (f) => [
      `${f.profile.locations && f.profile.locations > 1 ? `Each of the ${f.profile.locations} locations` : "The practice's facility"} has a facility security plan protecting equipment from unauthorized access, tampering and theft (164.310(a)(2)(ii)).`,
      "Server and network closets are locked; access is controlled and validated by role, and visitors are escorted (164.310(a)(2)(iii)).",
      "Repairs and modifications to security-related physical components (locks, doors, alarms) are recorded (164.310(a)(2)(iv)).",
    ],
    procedures: () => ["Keys and badges are issued and collected against a log reviewed quarterly."],
  }),
  definePolicy({
    number: 13,
    slug: "workstation-use",
    title: "Workstation Use",
    citations: ["164.310(b)"],
    purpose:
      "To specify the proper functions, manner of use and physical surroundings of workstations that access ePHI (164.310(b)).",
    policy: (f) => [
      `Workstations (${f.systems.length > 0 ? f.systems.map((s) => s.host).join(", ") : "every desktop and laptop"}) are used for practice business only.`,
      "Screens facing public areas use privacy filters; workstations are locked when unattended.",
      "ePHI is not stored on local drives except in approved, encrypted locations.",
    ],
    procedures: () => ["New workstations are configured from the practice's baseline before use."],
  }),
  definePolicy({
    number: 14,
    slug: "workstation-security",
    title: "Workstation Security",
    citations: ["164.310(c)", "164.312(a)(2)(iii)"],
    purpose:
      "To implement physical safeguards for all workstations that access ePHI, restricting access to authorized users (164.310(c)).",
    policy: () => [
      "Workstations are placed where unauthorized people cannot view or use them; laptops are cable-locked or locked away.",
      "Screens lock after no more than 15 minutes of inactivity (164.312(a)(2)(iii)).",
    ],
    procedures: () => [
      "The internal scanner's access-control phase verifies screen-lock settings; findings are fixed within 30 days.",
    ],
  }),
  definePolicy({
    number: 15,
    slug: "device-media-controls",
    title: "Device and Media Controls",
    citations: ["164.310(d)(1)", "164.310(d)(2)(i)", "164.310(d)(2)(ii)", "164.310(d)(2)(iii)", "164.310(d)(2)(iv)"],
    purpose:
      "To govern the receipt and removal of hardware and electronic media containing ePHI into, out of and within the facility (164.310(d)(1)).",
    policy: (f) => [
      `An inventory records every device and medium that holds ePHI and who is responsible for it (164.310(d)(2)(iii)); the scanner's asset inventory currently lists ${f.systems.length} host(s).`,
      "ePHI is removed from media before re-use (164.310(d)(2)(ii)); media are disposed of by destruction or NIST SP 800-88 purging, with a certificate (164.310(d)(2)(i)).",
      "A retrievable copy of ePHI is made before equipment is moved (164.310(d)(2)(iv)).",
    ],
    procedures: () => ["Devices leaving service go to the Security Official for sanitization and the disposal log."],
  }),
  definePolicy({
    number: 16,
    slug: "access-control",
    title: "Access Control",
    citations: ["164.312(a)(1)", "164.312(a)(2)(i)", "164.312(a)(2)(ii)", "164.312(a)(2)(iii)", "164.312(a)(2)(iv)"],
    purpose: "To allow access to ePHI only to persons and software programs granted access rights (164.312(a)(1)).",
    policy: (f) => [
      `Every user of ${ephiSystems(f)} has a unique user ID; shared and generic accounts are prohibited (164.312(a)(2)(i)).`,
      "An emergency access procedure lets authorized staff obtain ePHI during an emergency; its use is logged and reviewed (164.312(a)(2)(ii)).",
      "Sessions end or lock after 15 minutes of inactivity (164.312(a)(2)(iii)).",
      "ePHI at rest on workstations, laptops, servers and removable media is encrypted with full-disk encryption (BitLocker, FileVault, LUKS) (164.312(a)(2)(iv)).",
    ],
    procedures: () => [
      "Encryption status is verified by the internal scanner; an unencrypted device holding ePHI is encrypted or removed within 7 days.",
    ],
  }),
  definePolicy({
    number: 17,
    slug: "audit-controls",
    title: "Audit Controls",
    citations: ["164.312(b)", "164.308(a)(1)(ii)(D)"],
    purpose:
      "To implement mechanisms that record and examine activity in systems that contain or use ePHI (164.312(b)).",
    policy: (f) => [
      `Audit logging is enabled on ${ephiSystems(f)}, on the network firewall and on cloud services holding ePHI.`,
      "Logs are reviewed under Policy 3 and protected from alteration; HCS keeps its own audit trail of compliance activity with hash-chained, anchored proofs.",
    ],
    procedures: () => ["Logging settings are checked at each annual evaluation."],
  }),
  definePolicy({
    number: 18,
    slug: "integrity",
    title: "Integrity",
    citations: ["164.312(c)(1)", "164.312(c)(2)"],
    purpose: "To protect ePHI from improper alteration or destruction (164.312(c)(1)).",
    policy: () => [
      "Mechanisms corroborate that ePHI has not been altered or destroyed in an unauthorized manner: EHR audit trails, database checksums and backup verification (164.312(c)(2)).",
      "Changes to clinical records are made only through the EHR's amendment functions.",
    ],
    procedures: () => ["Backup verification results are reviewed weekly."],
  }),
  definePolicy({
    number: 19,
    slug: "person-entity-authentication",
    title: "Person or Entity Authentication",
    citations: ["164.312(d)", "164.308(a)(5)(ii)(D)"],
    purpose: "To verify that a person or entity seeking access to ePHI is the one claimed (164.312(d)).",
    policy: (f) => [
      `Multi-factor authentication is required for remote access, email, administrator accounts and every cloud service holding ePHI, for ${workforce(f)}.`,
      "Passwords are at least 12 characters, never shared, and changed on suspicion of compromise (164.308(a)(5)(ii)(D)).",
    ],
    procedures: () => [
      "The scanner's MFA phase and the account reviews verify enrollment; accounts without MFA are disabled after 14 days.",
    ],
  }),
  definePolicy({
    number: 20,
    slug: "transmission-security",
    title: "Transmission Security",
    citations: ["164.312(e)(1)", "164.312(e)(2)(i)", "164.312(e)(2)(ii)"],
    purpose:
      "To guard against unauthorized access to ePHI transmitted over an electronic communications network (164.312(e)(1)).",
    policy: (f) => [
      `ePHI is transmitted only over encrypted channels (TLS 1.2 or later, SFTP, VPN); cleartext protocols (FTP, telnet, HTTP forms) are prohibited (164.312(e)(2)(ii)); ${f.domain} enforces HTTPS.`,
      "Integrity controls detect modification of ePHI in transit (164.312(e)(2)(i)).",
      "Email containing ePHI to outside recipients is sent encrypted.",
    ],
    procedures: (f) => [
      `${officer(f, "security_officer")} reviews the external scan's email and TLS findings monthly.`,
    ],
  }),
];
