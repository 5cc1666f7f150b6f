import type { HipaaControlId } from "@hcs/protocol";

/**
 * The HIPAA Security Rule citations each kind of external finding touches (45 CFR; ids from the protocol's
 * control catalogue). Kept in one table so that two checks about the same safeguard cite it the same way.
 */
export const CONTROLS = {
  /** Spoofed mail is how phishing reaches the workforce and patients: authentication of the sender. */
  emailAuthentication: ["164.312(d)", "164.308(a)(5)(ii)(B)", "164.312(c)(1)"],
  /** Encryption of ePHI in transit. */
  transportEncryption: ["164.312(e)(1)", "164.312(e)(2)(ii)"],
  /** Encryption plus the integrity of what is transmitted (certificates, downgrade protection). */
  transportIntegrity: ["164.312(e)(1)", "164.312(e)(2)(i)", "164.312(e)(2)(ii)"],
  /** Browser-side hardening of the website (content injection, clickjacking, MIME sniffing). */
  webHardening: ["164.312(c)(1)", "164.308(a)(1)(ii)(B)"],
  /** Session cookies: access control and their protection in transit. */
  sessionProtection: ["164.312(a)(1)", "164.312(e)(2)(ii)"],
  /** Services reachable from the internet. */
  exposedServices: ["164.312(e)(1)", "164.312(a)(1)", "164.308(a)(1)(ii)(B)"],
  /** Remote access services reachable from the internet: access control and authentication. */
  remoteAccess: ["164.312(e)(1)", "164.312(a)(1)", "164.312(d)"],
  /** Disclosed or outdated software versions: risk management and protection from malicious software. */
  softwareRisk: ["164.308(a)(1)(ii)(B)", "164.308(a)(5)(ii)(B)"],
  /** Tracking technologies: disclosures to vendors without a BAA, and the risk analysis that should catch them. */
  tracking: ["164.308(b)(1)", "164.312(e)(1)", "164.308(a)(1)(ii)(A)"],
  /** Forms that carry patient data over plain HTTP. */
  formTransport: ["164.312(e)(1)", "164.312(e)(2)(ii)"],
  /** Published policies (the Notice of Privacy Practices itself is required by 164.520(c)(3)(i)). */
  privacyNotice: ["164.316(a)", "164.316(b)(2)(ii)"],
  /** A check that could not run: the evaluation (164.308(a)(8)) is incomplete. */
  evaluation: ["164.308(a)(8)"],
} as const satisfies Record<string, readonly HipaaControlId[]>;
