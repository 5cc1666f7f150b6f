import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import type { DnsAnswer, MxRecord } from "../io/types.js";
import { failedDnsOutcome, txtRecords } from "./dns-outcome.js";
import { discoverMtaStsRecord } from "./mta-sts-record.js";
import { mailExchangers } from "./mx-check.js";

/** Findings about the MTA-STS record of a domain that receives mail (pure). */
export function evaluateMtaSts(
  domain: string,
  mx: DnsAnswer<MxRecord[]>,
  answer: DnsAnswer<string[]>,
): FindingParsed[] {
  if (mailExchangers(mx).length === 0) return [];
  const base = { category: "email_security", controls: CONTROLS.transportEncryption, subject: domain } as const;
  const found = discoverMtaStsRecord(txtRecords(answer));
  if (found.state === "none") {
    return [
      externalFinding({
        ...base,
        check_id: "email.mta_sts.missing",
        severity: "low",
        title: "No MTA-STS policy",
        detail: `_mta-sts.${domain} has no record, so mail servers sending to the practice accept an unencrypted or downgraded connection if an attacker strips STARTTLS.`,
        remediation: `Publish an MTA-STS policy at https://mta-sts.${domain}/.well-known/mta-sts.txt and a TXT record "v=STSv1; id=<date>" at _mta-sts.${domain} (RFC 8461).`,
      }),
    ];
  }
  const records = found.state === "multiple" ? [...found.records] : [found.raw];
  const problem =
    found.state === "multiple" ? "more than one v=STSv1 record" : found.parsed.ok ? null : found.parsed.problem;
  if (problem !== null) {
    return [
      externalFinding({
        ...base,
        check_id: "email.mta_sts.invalid",
        severity: "low",
        title: "MTA-STS record is invalid",
        detail: `The record at _mta-sts.${domain} is ignored by senders: ${problem}.`,
        evidence: { records, problem },
        remediation: `Publish exactly one record "v=STSv1; id=<1-32 letters or digits>" (no spaces around "=") at _mta-sts.${domain}.`,
      }),
    ];
  }
  return [];
}

export const mtaStsCheck: ExternalCheck = {
  id: "email.mta_sts",
  category: "email_security",
  title: "MTA-STS record",
  subject: "domain",
  timeoutMs: 6_000,
  async run(ctx): Promise<CheckOutcome> {
    const name = `_mta-sts.${ctx.target.domain}`;
    const [mx, answer] = await Promise.all([ctx.dns.mx(ctx.target.domain), ctx.dns.txt(name)]);
    const failed = failedDnsOutcome(ctx.target.domain, mx) ?? failedDnsOutcome(name, answer);
    if (failed) return failed;
    return {
      status: "ok",
      findings: evaluateMtaSts(ctx.target.domain, mx, answer),
      facts: { applicable: mailExchangers(mx).length > 0, records: txtRecords(answer) },
    };
  },
};
