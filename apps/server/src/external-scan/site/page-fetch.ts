import { type FailedCheckStatus, statusForNetFailure } from "../check-status.js";
import type { HostResolution } from "../guard.js";
import type { HttpIO, HttpOutcome } from "../io/types.js";
import { redactUrl } from "./urls.js";

/** A response the scan got, after following redirects. */
export interface FetchedResponse {
  /** Full final URL (kept internal; evidence uses redacted URLs). */
  readonly url: string;
  readonly address: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly set_cookies: readonly string[];
  readonly body: string;
  readonly truncated: boolean;
}

export interface RedirectHop {
  /** Redacted URL. */
  readonly url: string;
  readonly status: number;
}

export type PageFetch =
  | { readonly ok: true; readonly response: FetchedResponse; readonly chain: readonly RedirectHop[] }
  | {
      readonly ok: false;
      readonly status: FailedCheckStatus;
      readonly code: string;
      readonly detail: string;
      /** Redacted URL of the request that failed. */
      readonly url: string;
      readonly chain: readonly RedirectHop[];
    };

export interface PageFetchOptions {
  /** Redirects to URLs this rejects are not followed; the redirect response is returned as the final one. */
  readonly follow?: (url: URL) => boolean;
}

export type PageFetcher = (url: string, options?: PageFetchOptions) => Promise<PageFetch>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 6;

/**
 * GET with redirects followed by the scan itself, so every hop's host passes the address policy before a byte is
 * sent to it, and the chain is recorded.
 */
export function createPageFetcher(deps: {
  readonly http: HttpIO;
  readonly guard: (host: string) => Promise<HostResolution>;
  readonly signal: AbortSignal;
}): PageFetcher {
  // A scan asks for some URLs more than once: the plain-HTTP home page usually redirects to the HTTPS one already
  // fetched, and crawled pages link back to pages seen. Each URL is requested once per scan (the fetcher lives as
  // long as one scan) and later asks share the first answer.
  const responses = new Map<string, Promise<HttpOutcome>>();
  const get = (href: string, address: string): Promise<HttpOutcome> => {
    let pending = responses.get(href);
    if (!pending) {
      pending = deps.http
        .get({ url: href, address, signal: deps.signal })
        .catch((error: unknown) => ({ ok: false as const, code: "error" as const, detail: String(error) }));
      responses.set(href, pending);
    }
    return pending;
  };
  return async (startUrl, options = {}) => {
    const chain: RedirectHop[] = [];
    let url = new URL(startUrl);
    for (let hop = 0; ; hop++) {
      const host = url.hostname.replace(/^\[|\]$/g, "");
      const resolution = await deps.guard(host);
      if (!resolution.ok) {
        return {
          ok: false,
          status: resolution.status,
          code: resolution.status,
          detail: resolution.detail,
          url: redactUrl(url),
          chain,
        };
      }
      const address = resolution.addresses[0]!;
      const outcome = await get(url.href, address);
      if (!outcome.ok) {
        return {
          ok: false,
          status: statusForNetFailure(outcome.code),
          code: outcome.code,
          detail: `${redactUrl(url)}: ${outcome.code}${outcome.detail ? ` (${outcome.detail})` : ""}`,
          url: redactUrl(url),
          chain,
        };
      }
      chain.push({ url: redactUrl(url), status: outcome.status });
      const location = outcome.headers.location;
      const next = REDIRECTS.has(outcome.status) && location ? safeUrl(location, url) : null;
      const follow = next !== null && hop < MAX_REDIRECTS && (options.follow?.(next) ?? true);
      if (!follow) {
        return {
          ok: true,
          chain,
          response: {
            url: url.href,
            address,
            status: outcome.status,
            headers: outcome.headers,
            set_cookies: outcome.set_cookies,
            body: outcome.body,
            truncated: outcome.truncated,
          },
        };
      }
      url = next;
    }
  };
}

function safeUrl(location: string, base: URL): URL | null {
  try {
    const next = new URL(location, base);
    return next.protocol === "http:" || next.protocol === "https:" ? next : null;
  } catch {
    return null;
  }
}
