import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import type { DnsAnswer, MxRecord } from "../io/types.js";
import { failedDnsOutcome, txtRecords } from "./dns-outcome.js";
import { mailExchangers } from "./mx-check.js";
import { discoverTlsRptRecord } from "./tls-rpt-record.js";

/** Findings about the SMTP TLS reporting record of a domain that receives mail (pure). */
export function evaluateTlsRpt(
  domain: string,
  mx: DnsAnswer<MxRecord[]>,
  answer: DnsAnswer<string[]>,
): FindingParsed[] {
  if (mailExchangers(mx).length === 0) return [];
  const base = { category: "email_security", controls: CONTROLS.transportEncryption, subject: domain } as const;
  const found = discoverTlsRptRecord(txtRecords(answer));
  if (found.state === "none") {
    return [
      externalFinding({
        ...base,
        check_id: "email.tls_rpt.missing",
        severity: "info",
        title: "No SMTP TLS reporting (TLS-RPT)",
        detail: `_smtp._tls.${domain} has no record, so the practice is not told when mail to it fails to be encrypted.`,
        remediation: `Publish "v=TLSRPTv1; rua=mailto:<reports address>" at _smtp._tls.${domain} (RFC 8460).`,
      }),
    ];
  }
  const records = found.state === "multiple" ? [...found.records] : [found.raw];
  const problem =
    found.state === "multiple" ? "more than one v=TLSRPTv1 record" : found.parsed.ok ? null : found.parsed.problem;
  if (problem !== null) {
    return [
      externalFinding({
        ...base,
        check_id: "email.tls_rpt.invalid",
        severity: "low",
        title: "TLS-RPT record is invalid",
        detail: `The record at _smtp._tls.${domain} is ignored by senders: ${problem} (it needs exactly one "v=TLSRPTv1; rua=…" record with mailto: or https: destinations).`,
        evidence: { records, problem },
        remediation: `Publish exactly one record "v=TLSRPTv1; rua=mailto:<reports address>" at _smtp._tls.${domain}.`,
      }),
    ];
  }
  return [];
}

export const tlsRptCheck: ExternalCheck = {
  id: "email.tls_rpt",
  category: "email_security",
  title: "TLS-RPT record",
  subject: "domain",
  timeoutMs: 6_000,
  async run(ctx): Promise<CheckOutcome> {
    const name = `_smtp._tls.${ctx.target.domain}`;
    const [mx, answer] = await Promise.all([ctx.dns.mx(ctx.target.domain), ctx.dns.txt(name)]);
    const failed = failedDnsOutcome(ctx.target.domain, mx) ?? failedDnsOutcome(name, answer);
    if (failed) return failed;
    return {
      status: "ok",
      findings: evaluateTlsRpt(ctx.target.domain, mx, answer),
      facts: { applicable: mailExchangers(mx).length > 0, records: txtRecords(answer) },
    };
  },
};
