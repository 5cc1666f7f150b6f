import type { FindingParsed, JsonObject } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import { TLS_VERSIONS, type TlsVersion } from "../io/types.js";
import { judgeSuite, judgeVersion, type SuiteProblem } from "./cipher-suite-verdict.js";
import { type SuiteProperties, suiteByName } from "./cipher-suites.js";
import type { SuiteEnumeration } from "./suite-enumeration.js";
import { noTlsVersionOutcome, VERSION_NAMES } from "./tls-versions-check.js";

/** The accepted suites of each enumerated version, with their properties. */
function acceptedByVersion(enumeration: SuiteEnumeration): [TlsVersion, SuiteProperties[]][] {
  return TLS_VERSIONS.flatMap((version) => {
    const found = enumeration.byVersion[version];
    if (!found) return [];
    return [[version, found.accepted.map((name) => suiteByName(name)).filter((s) => s !== undefined)]];
  });
}

/** The offending suites of one problem class, by version name ("TLS 1.2": [IANA names]). */
function offending(enumeration: SuiteEnumeration, problem: SuiteProblem): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [version, suites] of acceptedByVersion(enumeration)) {
    const names = suites.filter((s) => judgeSuite(s).problems.includes(problem)).map((s) => s.iana);
    if (names.length > 0) out[VERSION_NAMES[version]] = names;
  }
  return out;
}

const listing = (byVersion: Record<string, string[]>) =>
  Object.entries(byVersion)
    .map(([version, names]) => `${version}: ${names.join(", ")}`)
    .join("; ");

/**
 * Findings about the cipher suites a site accepts (pure): one per problem class, listing the offending suites per
 * version, judged against NIST SP 800-52r2 §3.3.1.
 */
export function evaluateCipherSuites(siteHost: string, port: number, enumeration: SuiteEnumeration): FindingParsed[] {
  const subject = `${siteHost}:${port}`;
  const findings: FindingParsed[] = [];
  const add = (
    problem: SuiteProblem,
    spec: { severity: "critical" | "high" | "medium" | "low"; title: string; detail: string; remediation: string },
  ) => {
    const byVersion = offending(enumeration, problem);
    if (Object.keys(byVersion).length === 0) return;
    const count = Object.values(byVersion).reduce((n, names) => n + names.length, 0);
    findings.push(
      externalFinding({
        check_id: `app.tls_ciphers.${problem}`,
        category: "application_security",
        controls: CONTROLS.transportIntegrity,
        subject,
        host: siteHost,
        severity: spec.severity,
        title: `${spec.title} (${count} suite${count === 1 ? "" : "s"})`,
        detail: `${spec.detail} Accepted by ${subject}: ${listing(byVersion)}.`,
        evidence: { port, suites: byVersion },
        remediation: spec.remediation,
      }),
    );
  };
  const insecure = offending(enumeration, "insecure");
  const worst = Object.values(insecure)
    .flat()
    .some((name) => {
      const s = suiteByName(name);
      return s !== undefined && (s.cipher === "NULL" || s.authentication === "anonymous" || s.exportGrade);
    });
  add("insecure", {
    severity: worst ? "critical" : "high",
    title: worst
      ? "Cipher suites without encryption, authentication or with export-grade keys accepted"
      : "Broken ciphers (RC4, DES, 3DES, RC2, IDEA or MD5) accepted",
    detail:
      "These suites leave traffic readable or open to impersonation (NULL, anonymous and export suites) or rest on ciphers broken in practice (RC4, DES/3DES Sweet32); NIST SP 800-52r2 §3.3.1 allows none of them.",
    remediation:
      "Remove these suites from the server's cipher list (for example keep only ECDHE with AES-GCM for TLS 1.2, as Mozilla's intermediate configuration does).",
  });
  add("no_forward_secrecy", {
    severity: "medium",
    title: "Cipher suites without forward secrecy accepted",
    detail:
      "With static RSA key transport, anyone who later obtains the server's private key can decrypt recorded sessions, ePHI included. NIST SP 800-52r2 §3.3.1 lists only ephemeral (ECDHE/DHE) key exchange for TLS 1.2, and TLS 1.3 has no other kind.",
    remediation:
      "Disable the TLS_RSA_WITH_* suites and keep ECDHE (or DHE) suites; every current browser negotiates ECDHE.",
  });
  add("cbc_mode", {
    severity: "low",
    title: "CBC-mode cipher suites accepted",
    detail:
      "CBC-mode suites have a long record of padding-oracle attacks (Lucky13, POODLE-style variants); NIST SP 800-52r2 §3.3.1 asks servers to prefer GCM or CCM, and TLS 1.3 dropped CBC altogether.",
    remediation: "Offer AEAD suites only (AES-GCM, or AES-CCM) for TLS 1.2, and enable TLS 1.3.",
  });
  return findings;
}

/** What the check saw, per version: the accepted suites, SP 800-52r2's reading and whether the list is complete. */
export function cipherSuiteFacts(enumeration: SuiteEnumeration): JsonObject {
  const versions: JsonObject = {};
  for (const [version, suites] of acceptedByVersion(enumeration)) {
    const found = enumeration.byVersion[version]!;
    const verdict = judgeVersion(version, suites);
    versions[VERSION_NAMES[version]] = {
      accepted: [...verdict.accepted],
      sp800_52r2: found.complete ? verdict.sp800_52r2 : "incomplete",
      not_conforming: { ...verdict.not_conforming },
      complete: found.complete,
      ...(found.detail ? { detail: found.detail } : {}),
    };
  }
  return {
    versions,
    handshakes: enumeration.handshakes,
    // Suites this client's TLS library cannot put in a ClientHello: whether the server accepts them is unknown.
    not_testable_by_this_client: [...enumeration.notTestable],
  };
}

export const tlsCiphersCheck: ExternalCheck = {
  id: "app.tls_ciphers",
  category: "application_security",
  title: "TLS cipher suites",
  subject: "site",
  timeoutMs: 20_000,
  async run(ctx): Promise<CheckOutcome> {
    const { host, outcomes, enumeration } = await ctx.site.tlsSuites();
    if (!host.ok) return { status: host.status, detail: host.detail };
    if (!enumeration) return noTlsVersionOutcome(outcomes);
    return {
      status: "ok",
      findings: evaluateCipherSuites(ctx.target.siteHost, ctx.target.httpsPort, enumeration),
      facts: cipherSuiteFacts(enumeration),
    };
  },
};
