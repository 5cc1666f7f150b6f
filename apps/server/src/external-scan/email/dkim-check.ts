import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding, type FindingSpec } from "../finding.js";
import type { DnsAnswer } from "../io/types.js";
import { type DkimKeyRecord, isDkimKeyRecord, parseDkimKeyRecord } from "./dkim-record.js";
import { failedDnsOutcome, txtRecords } from "./dns-outcome.js";
import { parseSpfRecord, selectSpfRecords } from "./spf-record.js";

/**
 * Selectors that mail services publish by default. DKIM selectors cannot be listed through DNS, so a key under
 * another name stays invisible to us: that is why a miss is worded "not found at common selectors".
 */
export const COMMON_DKIM_SELECTORS = [
  "default", // cPanel, Plesk and many hosting panels
  "google", // Google Workspace
  "selector1", // Microsoft 365
  "selector2", // Microsoft 365
  "k1", // Mailchimp / Mandrill
  "k2",
  "k3",
  "s1", // SendGrid
  "s2",
  "dkim",
  "mail",
  "smtp",
  "key1",
  "mandrill",
  "mxvault",
  "zoho", // Zoho Mail
  "protonmail", // Proton Mail
  "fm1", // Fastmail
  "fm2",
  "everlytickey1",
] as const;

export interface DkimEvidence {
  /** TXT answer at _domainkey.<domain>: NXDOMAIN proves nothing exists below it (RFC 8020). */
  readonly domainkey: DnsAnswer<string[]>;
  readonly selectors: Readonly<Record<string, DnsAnswer<string[]>>>;
}

type Spec = Omit<FindingSpec, "category" | "controls" | "subject">;

/** The DKIM keys found at the common selectors. */
export function foundDkimKeys(evidence: DkimEvidence): { selector: string; key: DkimKeyRecord }[] {
  return Object.entries(evidence.selectors).flatMap(([selector, answer]) =>
    txtRecords(answer)
      .filter(isDkimKeyRecord)
      .map((text) => ({ selector, key: parseDkimKeyRecord(text) })),
  );
}

/** Findings about DKIM signing keys of `domain` (pure). */
export function evaluateDkim(domain: string, evidence: DkimEvidence): FindingParsed[] {
  const f = (spec: Spec) =>
    externalFinding({ category: "email_security", controls: CONTROLS.emailAuthentication, subject: domain, ...spec });
  const found = foundDkimKeys(evidence);
  // Only keys a verifier can use count: a record whose p= is not an RSA or Ed25519 key verifies nothing.
  const keys = found.filter((k) => k.key.usable);
  const broken = found.filter((k) => !k.key.usable && !k.key.revoked);
  const invalid =
    broken.length === 0
      ? []
      : [
          f({
            check_id: "email.dkim.invalid_key",
            severity: "medium",
            title: "DKIM key record is not a usable key",
            detail: `Selector(s) ${broken.map((k) => k.selector).join(", ")} publish a key record that verifiers cannot use (${broken.map((k) => k.key.problems.join("; ")).join(" | ")}), so mail signed with it fails DKIM.`,
            evidence: { keys: broken.map((k) => ({ selector: k.selector, problems: [...k.key.problems] })) },
            remediation:
              'Publish the key exactly as the mail service gives it: "v=DKIM1; k=rsa; p=<base64 public key>" (or k=ed25519), one record per selector.',
          }),
        ];
  if (keys.length === 0 && invalid.length > 0) return invalid;
  if (keys.length === 0) {
    // NXDOMAIN at _domainkey proves no selector exists at all (RFC 8020); NODATA means names exist below it.
    const nothingBelow = !evidence.domainkey.ok && evidence.domainkey.code === "nxdomain";
    return [
      nothingBelow
        ? f({
            check_id: "email.dkim.not_found",
            severity: "medium",
            title: "No DKIM signing key found",
            detail: `_domainkey.${domain} does not exist and none of ${COMMON_DKIM_SELECTORS.length} common selectors has a key, so the practice's mail is most likely not DKIM-signed and DMARC can only rely on SPF.`,
            evidence: { selectors_checked: [...COMMON_DKIM_SELECTORS] },
            remediation:
              "Turn on DKIM signing in the mail service (Google Workspace, Microsoft 365 and others document it) and publish the key it gives you.",
          })
        : f({
            check_id: "email.dkim.unknown_selector",
            severity: "info",
            title: "DKIM keys exist under selectors we could not guess",
            detail: `Names exist under _domainkey.${domain}, but none of the ${COMMON_DKIM_SELECTORS.length} common selectors holds a key; the keys' strength was not assessed.`,
            evidence: { selectors_checked: [...COMMON_DKIM_SELECTORS] },
            remediation: "Nothing to do if mail is DKIM-signed; make sure keys are RSA 2048-bit or Ed25519.",
          }),
    ];
  }
  const findings: FindingParsed[] = [...invalid];
  const weak = keys.filter((k) => k.key.rsaBits !== null && k.key.rsaBits < 1024);
  const short = keys.filter((k) => k.key.rsaBits !== null && k.key.rsaBits >= 1024 && k.key.rsaBits < 2048);
  const describe = (list: typeof keys) => list.map((k) => ({ selector: k.selector, rsa_bits: k.key.rsaBits }));
  if (weak.length > 0) {
    findings.push(
      f({
        check_id: "email.dkim.weak_key",
        severity: "high",
        title: "DKIM key shorter than 1024 bits",
        detail: `Selector(s) ${weak.map((k) => k.selector).join(", ")} publish RSA keys under 1024 bits, which can be factored and receivers must not accept (RFC 8301).`,
        evidence: { keys: describe(weak) },
        remediation: "Rotate to a 2048-bit RSA key (or Ed25519 alongside RSA) and remove the old key record.",
      }),
    );
  }
  if (short.length > 0) {
    findings.push(
      f({
        check_id: "email.dkim.short_key",
        severity: "low",
        title: "DKIM key is 1024-bit RSA",
        detail: `Selector(s) ${short.map((k) => k.selector).join(", ")} use 1024-bit RSA; RFC 8301 recommends 2048 bits.`,
        evidence: { keys: describe(short) },
        remediation: "Rotate to a 2048-bit RSA key at your next key change.",
      }),
    );
  }
  const testing = keys.filter((k) => k.key.testing);
  if (testing.length > 0) {
    findings.push(
      f({
        check_id: "email.dkim.testing_mode",
        severity: "low",
        title: "DKIM key is flagged as a test (t=y)",
        detail: `Selector(s) ${testing.map((k) => k.selector).join(", ")} carry t=y: receivers treat signature failures as if the mail were unsigned.`,
        evidence: { selectors: testing.map((k) => k.selector) },
        remediation: "Remove t=y from the key record once signing works.",
      }),
    );
  }
  return findings;
}

/** A domain whose whole SPF policy is "v=spf1 -all" and that has no MX sends no mail: DKIM does not apply. */
export function sendsNoMail(spfTxt: readonly string[], hasMx: boolean): boolean {
  if (hasMx) return false;
  const records = selectSpfRecords(spfTxt);
  if (records.length !== 1) return false;
  const parsed = parseSpfRecord(records[0]!);
  return (
    parsed.ok &&
    parsed.record.mechanisms.length === 1 &&
    parsed.record.mechanisms[0]!.kind === "all" &&
    parsed.record.mechanisms[0]!.qualifier === "-"
  );
}

export const dkimCheck: ExternalCheck = {
  id: "email.dkim",
  category: "email_security",
  title: "DKIM signing keys",
  subject: "domain",
  timeoutMs: 8_000,
  async run(ctx): Promise<CheckOutcome> {
    const { domain } = ctx.target;
    const [domainkey, spf, mx, ...answers] = await Promise.all([
      ctx.dns.txt(`_domainkey.${domain}`),
      ctx.dns.txt(domain),
      ctx.dns.mx(domain),
      ...COMMON_DKIM_SELECTORS.map((s) => ctx.dns.txt(`${s}._domainkey.${domain}`)),
    ]);
    const selectors = Object.fromEntries(COMMON_DKIM_SELECTORS.map((s, i) => [s, answers[i]!]));
    const evidence: DkimEvidence = { domainkey, selectors };
    const keys = foundDkimKeys(evidence);
    if (keys.length === 0) {
      // Without a key, an unanswered query means we cannot tell "no DKIM" from "no answer".
      const failed = [domainkey, ...answers].map((a) => failedDnsOutcome(`_domainkey.${domain}`, a)).find((o) => o);
      if (failed) return failed;
      if (sendsNoMail(txtRecords(spf), mx.ok && mx.records.length > 0)) {
        return { status: "ok", facts: { applicable: false, reason: "the domain sends no mail (v=spf1 -all, no MX)" } };
      }
    }
    return {
      status: "ok",
      findings: evaluateDkim(domain, evidence),
      facts: {
        applicable: true,
        keys: keys.map((k) => ({
          selector: k.selector,
          key_type: k.key.keyType,
          rsa_bits: k.key.rsaBits,
          revoked: k.key.revoked,
          usable: k.key.usable,
        })),
      },
    };
  },
};
