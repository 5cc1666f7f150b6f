import type { ZoneRecord } from "../zone.js";

/**
 * Zones of the third-party mail services the sample practices' SPF records include, served by the same local DNS
 * server. Their A records are loopback addresses nothing listens on; the scan never connects to mail hosts anyway.
 */
export const MAIL_PROVIDER_ORIGINS = ["mailhost.test", "crm-mailer.test", "newsletter.test", "billing-notices.test"];

export function mailProviderRecords(): ZoneRecord[] {
  const txt = (name: string, text: string): ZoneRecord => ({ name, type: "TXT", text });
  return [
    { name: "mx1.mailhost.test", type: "A", address: "127.0.10.251" },
    { name: "mx2.mailhost.test", type: "A", address: "127.0.10.252" },
    txt("_spf.mailhost.test", "v=spf1 ip4:192.0.2.0/24 ip6:2001:db8:25::/48 -all"),
    // A CRM's SPF split over several records, as large senders publish it.
    txt(
      "spf.crm-mailer.test",
      "v=spf1 include:_s1.crm-mailer.test include:_s2.crm-mailer.test include:_s3.crm-mailer.test ~all",
    ),
    txt("_s1.crm-mailer.test", "v=spf1 ip4:198.51.100.0/28 ~all"),
    txt("_s2.crm-mailer.test", "v=spf1 ip4:198.51.100.16/28 ~all"),
    txt("_s3.crm-mailer.test", "v=spf1 ip4:198.51.100.32/28 ~all"),
    txt("spf.newsletter.test", "v=spf1 include:_nets.newsletter.test a:out.newsletter.test ~all"),
    txt("_nets.newsletter.test", "v=spf1 ip4:203.0.113.0/25 ~all"),
    { name: "out.newsletter.test", type: "A", address: "127.0.10.253" },
    txt("spf.billing-notices.test", "v=spf1 mx include:_spf.mailhost.test ~all"),
    { name: "billing-notices.test", type: "MX", exchange: "mx1.mailhost.test", priority: 10 },
  ];
}
