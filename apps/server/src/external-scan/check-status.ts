import type { DnsFailureCode, NetFailureCode } from "./io/types.js";

/**
 * How a check ended. `ok`: it ran and its findings (possibly none) are the assessment. The others mean it could
 * not assess: `unreachable` (no answer, connection refused, name does not resolve), `refused` (the target resolves
 * to a non-public address and private targets are not allowed: no traffic was sent), `timeout`, `error`.
 *
 * A leaf module: the guard, the page fetcher and the crawl need these words, and the check contract needs them
 * too, so they live where neither depends on the other.
 */
export const CHECK_STATUSES = ["ok", "unreachable", "refused", "error", "timeout"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** A status that means the check could not assess its subject. */
export type FailedCheckStatus = Exclude<CheckStatus, "ok">;

/** The check status for a DNS failure (resolving a host to connect to, or a record a check needs). */
export function statusForDnsFailure(code: DnsFailureCode): Exclude<CheckStatus, "ok" | "refused"> {
  switch (code) {
    case "timeout":
      return "timeout";
    case "nxdomain":
    case "nodata":
    case "unreachable":
      return "unreachable";
    default:
      return "error";
  }
}

/** The check status a connection failure amounts to. */
export function statusForNetFailure(code: NetFailureCode): Exclude<CheckStatus, "ok" | "refused"> {
  switch (code) {
    case "timeout":
    case "aborted":
      return "timeout";
    case "connection_refused":
    case "unreachable":
    case "reset":
    case "handshake_failed":
      return "unreachable";
    default:
      return "error";
  }
}
