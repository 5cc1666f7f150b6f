import type { DnsIO, HttpIO } from "../../external-scan/io/types.js";
import { checkAddressPolicy } from "../../net/ip-policy.js";

/** The DNS name whose TXT record proves control of `domain` (as ACME's `_acme-challenge` does). */
export const proofTxtName = (domain: string) => `_hcs-verification.${domain}`;
/** The line a TXT record or the well-known file must hold. */
export const proofValue = (token: string) => `hcs-verification=${token}`;
/** Where the file that proves control of `domain` is served. */
export const proofFileUrl = (domain: string) => `https://${domain}/.well-known/hcs-verification.txt`;

export interface ProofCheck {
  readonly found: boolean;
  readonly detail: string;
}

export interface ProofOutcome {
  readonly at: string;
  readonly dns_txt: ProofCheck;
  readonly well_known: ProofCheck;
}

/** What checks a proof: the external scan's resolver and HTTP client, and its address policy. */
export interface ProofIO {
  readonly dns: DnsIO;
  readonly http: HttpIO;
  readonly allowPrivateTargets: boolean;
}

/** Longest a proof check waits for one answer: a practice's DNS or site that does not answer in time is not proof. */
const CHECK_TIMEOUT_MS = 10_000;

async function checkTxt(io: ProofIO, domain: string, value: string, signal: AbortSignal): Promise<ProofCheck> {
  const answer = await io.dns.txt(proofTxtName(domain), signal);
  if (!answer.ok) return { found: false, detail: `no TXT record at ${proofTxtName(domain)} (${answer.code})` };
  const found = answer.records.some((r) => r.trim() === value);
  return {
    found,
    detail: found
      ? `TXT record ${proofTxtName(domain)} holds the token`
      : `TXT record ${proofTxtName(domain)} does not hold ${value} (${answer.records.length} record(s))`,
  };
}

async function checkFile(io: ProofIO, domain: string, value: string, signal: AbortSignal): Promise<ProofCheck> {
  const url = proofFileUrl(domain);
  const addresses = await io.dns.addresses(domain, signal);
  if (!addresses.ok) return { found: false, detail: `${domain} does not resolve (${addresses.code})` };
  const blocked = new Set(checkAddressPolicy(addresses.records, io.allowPrivateTargets));
  const address = addresses.records.find((a) => !blocked.has(a));
  // The same address policy as the external scan: a domain pointing at a private address is never fetched.
  if (!address) return { found: false, detail: `${domain} resolves only to non-public addresses: not fetched` };
  const res = await io.http.get({ url, address, signal });
  if (!res.ok) return { found: false, detail: `${url} could not be fetched (${res.code})` };
  if (res.status !== 200) return { found: false, detail: `${url} answered ${res.status} (redirects are not followed)` };
  const found = res.body.split(/\r?\n/).some((line) => line.trim() === value);
  return { found, detail: found ? `${url} holds the token` : `${url} does not hold ${value}` };
}

/**
 * Looks for the claim's proof both ways, as certificate authorities and search consoles do: the TXT record
 * `_hcs-verification.<domain>` holding `hcs-verification=<token>`, and the file
 * `https://<domain>/.well-known/hcs-verification.txt` holding the same line (served with 200 at that URL; no redirect
 * is followed). Either is proof. Never throws: a failure is an outcome with its reason.
 */
export async function checkProof(io: ProofIO, domain: string, token: string, now: Date): Promise<ProofOutcome> {
  const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  const value = proofValue(token);
  const [dns_txt, well_known] = await Promise.all([
    checkTxt(io, domain, value, signal).catch((err: unknown) => ({
      found: false,
      detail: `DNS check failed: ${String(err)}`,
    })),
    checkFile(io, domain, value, signal).catch((err: unknown) => ({
      found: false,
      detail: `HTTPS check failed: ${String(err)}`,
    })),
  ]);
  return { at: now.toISOString(), dns_txt, well_known };
}

/** The method an outcome proves control by (DNS first), or null. */
export function provedBy(outcome: ProofOutcome): "dns_txt" | "well_known" | null {
  return outcome.dns_txt.found ? "dns_txt" : outcome.well_known.found ? "well_known" : null;
}
