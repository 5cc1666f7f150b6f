// Names as RFC 7208 check_host() sees them: the identity it checks, and what counts as a DNS name.

/** The sender and domain check_host() is called with for a MAIL FROM (RFC 7208 §2.4, §4.3). */
export function spfIdentity(mailFrom: string, helo: string): { sender: string; domain: string } {
  if (mailFrom === "") return { sender: `postmaster@${helo}`, domain: helo };
  const at = mailFrom.lastIndexOf("@");
  const local = at < 0 ? "" : mailFrom.slice(0, at);
  const domain = at < 0 ? mailFrom : mailFrom.slice(at + 1);
  return { sender: `${local || "postmaster"}@${domain}`, domain };
}

/** The name without a trailing dot, if it is a name DNS can ask: labels of 1-63 octets, 253 in all. */
export function dnsName(name: string): string | null {
  const bare = name.endsWith(".") ? name.slice(0, -1) : name;
  if (bare.length === 0 || bare.length > 253) return null;
  return bare.split(".").every((label) => label.length >= 1 && label.length <= 63) ? bare : null;
}

/** §4.3: a domain check_host() can evaluate at all; anything else gives "none" without a query. */
export function isEvaluableDomain(domain: string): boolean {
  const name = dnsName(domain);
  return name?.includes(".") === true && !name.startsWith("[");
}

/** §7.3: an expanded name longer than 253 octets loses labels from the left until it fits. */
export function truncateLeft(name: string): string {
  let out = name;
  while (out.length > 253 && out.includes(".")) out = out.slice(out.indexOf(".") + 1);
  return out;
}
