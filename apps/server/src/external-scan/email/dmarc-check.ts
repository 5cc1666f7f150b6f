import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding, type FindingSpec } from "../finding.js";
import type { DnsAnswer } from "../io/types.js";
import { discoverDmarcPolicy, selectDmarcRecords } from "./dmarc-record.js";
import { failedDnsOutcome, txtRecords } from "./dns-outcome.js";

type Spec = Omit<FindingSpec, "category" | "controls" | "subject">;

/** Findings about the DMARC record at _dmarc.<domain>, from its TXT answer (pure). */
export function evaluateDmarc(domain: string, answer: DnsAnswer<string[]>): FindingParsed[] {
  const name = `_dmarc.${domain}`;
  const f = (spec: Spec) =>
    externalFinding({ category: "email_security", controls: CONTROLS.emailAuthentication, subject: domain, ...spec });
  const discovery = discoverDmarcPolicy(txtRecords(answer));
  if (discovery.state === "none") {
    return [
      f({
        check_id: "email.dmarc.missing",
        severity: "high",
        title: "No DMARC record",
        detail: `${name} has no DMARC record, so receivers have no instruction to reject mail that forges the practice's domain and the practice gets no reports of such mail.`,
        remediation: `Publish a TXT record at ${name}, starting with "v=DMARC1; p=none; rua=mailto:<reports address>", review the reports, then move to p=quarantine and p=reject.`,
      }),
    ];
  }
  if (discovery.state === "multiple") {
    const records = [...discovery.records];
    return [
      f({
        check_id: "email.dmarc.multiple_records",
        severity: "high",
        title: "More than one DMARC record",
        detail: `${name} publishes ${records.length} DMARC records; RFC 7489 tells receivers to apply none of them.`,
        evidence: { records },
        remediation: "Keep exactly one v=DMARC1 record.",
      }),
    ];
  }
  const { raw, parsed } = discovery;
  if (!parsed.ok) {
    return [
      f({
        check_id: "email.dmarc.invalid",
        severity: "high",
        title: "DMARC record is invalid",
        detail: `The DMARC record at ${name} cannot be applied: ${parsed.problems.join("; ")}.`,
        evidence: { record: raw, problems: [...parsed.problems] },
        remediation: 'Correct the record, e.g. "v=DMARC1; p=quarantine; rua=mailto:dmarc-reports@<domain>".',
      }),
    ];
  }
  const r = parsed.record;
  const evidence = { record: raw };
  const findings: FindingParsed[] = [];
  if (parsed.fallback) {
    // RFC 7489 §6.6.3: receivers apply p=none to a record whose p (or sp) is unusable but whose rua is valid.
    findings.push(
      f({
        check_id: "email.dmarc.policy_none",
        severity: "medium",
        title: "DMARC policy is unusable, so receivers apply p=none",
        detail: `${parsed.problems.join("; ")}: receivers treat the record as p=none (RFC 7489 §6.6.3), so mail that fails DMARC is still delivered and only reports are sent.`,
        evidence: { record: raw, problems: [...parsed.problems], applied: "p=none" },
        remediation: 'Correct the policy, e.g. "p=quarantine" (then "p=reject") with exactly one p= tag.',
      }),
    );
  } else if (r.p === "none") {
    findings.push(
      f({
        check_id: "email.dmarc.policy_none",
        severity: "medium",
        title: "DMARC policy is p=none (monitoring only)",
        detail: "Mail that fails DMARC is still delivered: the record only asks for reports.",
        evidence,
        remediation:
          "Once the reports show all legitimate senders passing, change the policy to p=quarantine, then p=reject.",
      }),
    );
  } else if (r.pct < 100) {
    findings.push(
      f({
        check_id: "email.dmarc.partial_pct",
        severity: "low",
        title: `DMARC policy applies to only ${r.pct}% of failing mail`,
        detail: `pct=${r.pct}: the rest of the forged mail is treated as if the policy were p=none.`,
        evidence,
        remediation: "Remove the pct tag (100 is the default) once the policy has been observed.",
      }),
    );
  }
  if (r.testing) {
    findings.push(
      f({
        check_id: "email.dmarc.testing_mode",
        severity: "low",
        title: "DMARC policy is flagged as a test (t=y)",
        detail: "t=y asks receivers to apply a weaker policy than the one published.",
        evidence,
        remediation: "Remove t=y when the policy is ready to be enforced.",
      }),
    );
  }
  if (r.p !== "none" && r.sp === "none") {
    findings.push(
      f({
        check_id: "email.dmarc.subdomain_policy_none",
        severity: "low",
        title: "DMARC does not protect subdomains (sp=none)",
        detail: `Forged mail from any subdomain of ${domain} is delivered although the domain itself enforces p=${r.p}.`,
        evidence,
        remediation: "Remove sp=none (subdomains then inherit p) or set sp=quarantine or sp=reject.",
      }),
    );
  }
  if (r.rua.length === 0) {
    findings.push(
      f({
        check_id: "email.dmarc.no_reports",
        severity: "low",
        title: "DMARC aggregate reports are not requested (no rua)",
        detail: "Without rua the practice never learns who sends mail in its name, legitimately or not.",
        evidence,
        remediation: "Add rua=mailto:<reports address> (a DMARC report service can read them for you).",
      }),
    );
  }
  return findings;
}

export const dmarcCheck: ExternalCheck = {
  id: "email.dmarc",
  category: "email_security",
  title: "DMARC record",
  subject: "domain",
  timeoutMs: 8_000,
  async run(ctx): Promise<CheckOutcome> {
    const name = `_dmarc.${ctx.target.domain}`;
    const answer = await ctx.dns.txt(name);
    const failed = failedDnsOutcome(name, answer);
    if (failed) return failed;
    const records = selectDmarcRecords(txtRecords(answer));
    return {
      status: "ok",
      findings: evaluateDmarc(ctx.target.domain, answer),
      facts: { records },
    };
  },
};
