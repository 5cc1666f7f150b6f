import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import type { DnsAnswer, MxRecord } from "../io/types.js";
import { failedDnsOutcome } from "./dns-outcome.js";

/** RFC 7505 null MX: a single record with an empty exchange ("."), the domain's way of saying it takes no mail. */
export function isNullMx(records: readonly MxRecord[]): boolean {
  return records.length === 1 && (records[0]!.exchange === "" || records[0]!.exchange === ".");
}

/** The domain's mail servers in preference order, null MX excluded. */
export function mailExchangers(answer: DnsAnswer<MxRecord[]>): MxRecord[] {
  if (!answer.ok || isNullMx(answer.records)) return [];
  return [...answer.records].sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange));
}

/** Findings about the domain's MX records (pure). Not receiving mail is a fact worth stating, not a weakness. */
export function evaluateMx(domain: string, answer: DnsAnswer<MxRecord[]>): FindingParsed[] {
  const base = { category: "email_security", controls: CONTROLS.emailAuthentication, subject: domain } as const;
  if (answer.ok && isNullMx(answer.records)) {
    return [
      externalFinding({
        ...base,
        check_id: "email.mx.null_mx",
        severity: "info",
        title: "Domain declares that it accepts no mail (null MX)",
        detail: `${domain} publishes a null MX record (RFC 7505): mail to it is refused at once.`,
        remediation: "Nothing to do if the practice uses another domain for email.",
      }),
    ];
  }
  if (!answer.ok) {
    return [
      externalFinding({
        ...base,
        check_id: "email.mx.missing",
        severity: "info",
        title: "Domain has no MX records",
        detail: `${domain} has no MX records, so it receives no mail (senders may fall back to its A record). MTA-STS and TLS-RPT do not apply.`,
        remediation:
          "If the practice receives mail at this domain, publish its mail provider's MX records; otherwise publish a null MX (RFC 7505).",
      }),
    ];
  }
  return [];
}

export const mxCheck: ExternalCheck = {
  id: "email.mx",
  category: "email_security",
  title: "MX records",
  subject: "domain",
  timeoutMs: 6_000,
  async run(ctx): Promise<CheckOutcome> {
    const answer = await ctx.dns.mx(ctx.target.domain);
    const failed = failedDnsOutcome(ctx.target.domain, answer);
    if (failed) return failed;
    return {
      status: "ok",
      findings: evaluateMx(ctx.target.domain, answer),
      facts: { mx: mailExchangers(answer).map((m) => ({ exchange: m.exchange, priority: m.priority })) },
    };
  },
};
