import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import type { DnsAnswer, MxRecord } from "../io/types.js";
import { failedDnsOutcome, txtRecords } from "./dns-outcome.js";
import { mailExchangers } from "./mx-check.js";
import { firstTagValues, parseTagList } from "./tag-list.js";

/** RFC 8461 §3.1: "v=STSv1; id=<1-32 alphanumerics>;" — the policy id changes whenever the policy does. */
export function parseMtaStsRecord(text: string): { ok: true; id: string } | { ok: false; problem: string } {
  const tags = firstTagValues(parseTagList(text).tags);
  if (tags.get("v") !== "STSv1") return { ok: false, problem: "v=STSv1 is missing" };
  const id = tags.get("id");
  if (!id || !/^[a-z0-9]{1,32}$/i.test(id)) return { ok: false, problem: "id= must be 1 to 32 letters or digits" };
  return { ok: true, id };
}

/** Findings about the MTA-STS record of a domain that receives mail (pure). */
export function evaluateMtaSts(
  domain: string,
  mx: DnsAnswer<MxRecord[]>,
  answer: DnsAnswer<string[]>,
): FindingParsed[] {
  if (mailExchangers(mx).length === 0) return [];
  const base = { category: "email_security", controls: CONTROLS.transportEncryption, subject: domain } as const;
  const records = txtRecords(answer).filter((t) => /^v=STSv1/i.test(t.trim()));
  if (records.length === 0) {
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
  const parsed =
    records.length > 1
      ? { ok: false as const, problem: "more than one v=STSv1 record" }
      : parseMtaStsRecord(records[0]!);
  if (!parsed.ok) {
    return [
      externalFinding({
        ...base,
        check_id: "email.mta_sts.invalid",
        severity: "low",
        title: "MTA-STS record is invalid",
        detail: `The record at _mta-sts.${domain} is ignored by senders: ${parsed.problem}.`,
        evidence: { records },
        remediation: `Publish exactly one record "v=STSv1; id=<1-32 letters or digits>" at _mta-sts.${domain}.`,
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
