/** The A2A protocol versions this agent speaks (Major.Minor), as its card's interface declares. */
export const A2A_SUPPORTED_VERSIONS = ["1.0"] as const;

/** The request header that names the A2A version a client speaks (A2A v1.0 §3.6). */
export const A2A_VERSION_HEADER = "A2A-Version";

/** A2A v1.0 §3.6: a request without the header (or with an empty one) is read as version 0.3. */
const UNSTATED_VERSION = "0.3";

/**
 * The A2A version a request asks for, as Major.Minor — the patch number never counts in negotiation — or null
 * when the header is not a version at all.
 */
export function requestedA2aVersion(header: string): string | null {
  const text = header.trim();
  if (text === "") return UNSTATED_VERSION;
  const m = /^(\d{1,4})\.(\d{1,4})(?:\.\d{1,4})?$/.exec(text);
  return m ? `${Number(m[1])}.${Number(m[2])}` : null;
}

/**
 * Whether the request's A2A version is one this agent serves. A2A v1.0 says an agent processes a request with the
 * semantics of the version it names, and answers VersionNotSupported when it cannot: so 0.3 (an absent header)
 * and any version but 1.0 are refused rather than guessed at.
 */
export function negotiateA2aVersion(
  header: string,
): { readonly ok: true } | { readonly ok: false; readonly requested: string } {
  const requested = requestedA2aVersion(header);
  if (requested !== null && (A2A_SUPPORTED_VERSIONS as readonly string[]).includes(requested)) return { ok: true };
  return { ok: false, requested: requested ?? header.trim().slice(0, 40) };
}
