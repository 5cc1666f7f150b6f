import type { TlsVersion } from "../io/types.js";
import type { SuiteProperties } from "./cipher-suites.js";

/**
 * How NIST SP 800-52 Rev. 2 (§3.3.1) treats a cipher suite:
 * - `recommended`: ephemeral (EC)DHE key exchange with an RSA or ECDSA certificate and AES in GCM or CCM mode
 *   (TLS 1.2, §3.3.1.1), or a TLS 1.3 AES suite (§3.3.1.2);
 * - `acceptable`: the same with AES-CBC — listed, but §3.3.1 asks servers to prefer GCM/CCM over CBC;
 * - `not_listed`: built from sound algorithms but outside the guideline's list: static RSA/DH key transport (no
 *   forward secrecy), DSA certificates, or ciphers that are not NIST-approved (ChaCha20-Poly1305, Camellia, ARIA, SEED);
 * - `disallowed`: no encryption, no server authentication, export-grade keys, or a broken or withdrawn cipher or MAC
 *   (RC4, DES, 3DES, RC2, IDEA, MD5).
 */
export type Sp80052r2Verdict = "recommended" | "acceptable" | "not_listed" | "disallowed";

/** The problem classes the TLS cipher check reports, one finding each. */
export type SuiteProblem = "insecure" | "no_forward_secrecy" | "cbc_mode";

export interface SuiteJudgement {
  readonly verdict: Sp80052r2Verdict;
  /** Why the suite is not recommended ("" when it is). */
  readonly reason: string;
  readonly problems: readonly SuiteProblem[];
}

const BROKEN_CIPHERS = new Set(["RC4", "DES", "3DES", "RC2", "IDEA"]);
const NOT_NIST_APPROVED = new Set(["CHACHA20", "CAMELLIA", "ARIA", "SEED"]);

/** The suite's SP 800-52r2 verdict and the problems it brings (pure, from its properties only). */
export function judgeSuite(suite: SuiteProperties): SuiteJudgement {
  const problems: SuiteProblem[] = [];
  const reasons: string[] = [];
  if (suite.cipher === "NULL") reasons.push("no encryption");
  if (suite.authentication === "anonymous") reasons.push("no server authentication");
  if (suite.exportGrade) reasons.push(`export-grade ${suite.keyBits}-bit key`);
  if (BROKEN_CIPHERS.has(suite.cipher)) reasons.push(`${suite.cipher} is broken or withdrawn`);
  if (suite.mac === "MD5") reasons.push("MD5 MAC");
  const insecure = reasons.length > 0;
  if (insecure) problems.push("insecure");
  if (!suite.forwardSecrecy) {
    problems.push("no_forward_secrecy");
    reasons.push("static key transport: no forward secrecy");
  }
  if (suite.mode === "CBC" && suite.cipher !== "NULL") {
    problems.push("cbc_mode");
    if (!insecure) reasons.push("CBC mode (prefer GCM or CCM)");
  }
  if (insecure) return { verdict: "disallowed", reason: reasons.join("; "), problems };
  if (!suite.forwardSecrecy) return { verdict: "not_listed", reason: reasons.join("; "), problems };
  if (NOT_NIST_APPROVED.has(suite.cipher)) {
    return { verdict: "not_listed", reason: `${suite.cipher} is not a NIST-approved cipher`, problems };
  }
  if (suite.authentication === "DSS") {
    return { verdict: "not_listed", reason: "DSA certificates (withdrawn for signing by FIPS 186-5)", problems };
  }
  if (suite.mode === "CBC") return { verdict: "acceptable", reason: reasons.join("; "), problems };
  return { verdict: "recommended", reason: "", problems };
}

/** The SP 800-52r2 reading of one protocol version as the server offers it. */
export interface VersionVerdict {
  readonly version: TlsVersion;
  /** IANA names of the accepted suites. */
  readonly accepted: readonly string[];
  /**
   * `conforms`: TLS 1.2/1.3 with every accepted suite recommended or acceptable; `does_not_conform`: a legacy
   * version (§3.1 requires TLS 1.2 or later) or an accepted suite that is not listed or is disallowed.
   */
  readonly sp800_52r2: "conforms" | "does_not_conform";
  /** Each non-conforming accepted suite with the reason, and the version itself when it is legacy. */
  readonly not_conforming: Readonly<Record<string, string>>;
}

const LEGACY_VERSIONS: readonly TlsVersion[] = ["TLSv1", "TLSv1.1"];

export function judgeVersion(version: TlsVersion, accepted: readonly SuiteProperties[]): VersionVerdict {
  const notConforming: Record<string, string> = {};
  if (LEGACY_VERSIONS.includes(version)) notConforming[version] = "SP 800-52r2 §3.1 requires TLS 1.2 or later";
  for (const suite of accepted) {
    const judgement = judgeSuite(suite);
    if (judgement.verdict === "not_listed" || judgement.verdict === "disallowed") {
      notConforming[suite.iana] = `${judgement.verdict}: ${judgement.reason}`;
    }
  }
  return {
    version,
    accepted: accepted.map((s) => s.iana),
    sp800_52r2: Object.keys(notConforming).length === 0 ? "conforms" : "does_not_conform",
    not_conforming: notConforming,
  };
}
