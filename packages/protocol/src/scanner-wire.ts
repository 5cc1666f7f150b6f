/**
 * Rules the scanner and the server must apply alike: the API paths of enrolment and upload, which answers are worth
 * retrying, and how a finding's id is built from its check and subject.
 */

/** The scanner's API paths (relative to the server URL). */
export const SCANNER_API_PATHS = {
  register: "/v1/a2a/network/register",
  results: "/v1/a2a/network/results",
  /** Where a practice owner asks for a deploy token (`{npi}` to fill in). */
  deploy: "/v1/a2a/network/deploy/{npi}",
} as const;

/**
 * HTTP statuses worth sending the same request again for, later: a timeout, rate limiting, and the server errors
 * that mean "not now" (an unexpected 500 included). Every other status is the server's answer, and the same request
 * would get it again (501 included: not implemented stays not implemented).
 */
export const RETRYABLE_STATUSES = [408, 429, 500, 502, 503, 504] as const;

export function isRetryableStatus(status: number): boolean {
  return (RETRYABLE_STATUSES as readonly number[]).includes(status);
}

/** Longest finding id the protocol accepts. */
const FINDING_ID_MAX = 200;

/**
 * The part of a finding id that names its subject: lower-cased (host names, URLs and Windows volumes are case
 * insensitive), without a URL scheme, every run of characters finding ids do not allow replaced by one `_`.
 */
export function findingSubjectPart(subject: string): string {
  return subject
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .replace(/[^a-z0-9_.:\-/[\]@]+/g, "_");
}

/**
 * A finding's id: `<check_id>:<subject part>`, or the check id alone for a finding about the whole subject. The same
 * problem on the same subject gets the same id from every scan, on the scanner and on the server alike (first_seen
 * and resolution rely on it). At most 200 characters.
 */
export function findingId(checkId: string, subject?: string): string {
  const id = subject === undefined || subject === "" ? checkId : `${checkId}:${findingSubjectPart(subject)}`;
  return id.slice(0, FINDING_ID_MAX);
}
