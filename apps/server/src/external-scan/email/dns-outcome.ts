import type { CheckOutcome } from "../check.js";
import { statusForDnsFailure } from "../check-status.js";
import type { DnsAnswer } from "../io/types.js";

/** True when the answer says the name has no such records (as opposed to "we could not find out"). */
export function isAbsent(answer: DnsAnswer<unknown>): boolean {
  return !answer.ok && (answer.code === "nxdomain" || answer.code === "nodata");
}

/** The outcome of a DNS check whose essential query got no usable answer, or null when it did. */
export function failedDnsOutcome(name: string, answer: DnsAnswer<unknown>): CheckOutcome | null {
  if (answer.ok || isAbsent(answer)) return null;
  return { status: statusForDnsFailure(answer.code), detail: `DNS query for ${name} failed (${answer.code})` };
}

/** The TXT strings of an answer, [] when the name has none. */
export function txtRecords(answer: DnsAnswer<string[]> | undefined): string[] {
  return answer?.ok ? answer.records : [];
}
