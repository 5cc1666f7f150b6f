/**
 * A URL as findings and facts show it: no query string or fragment (they can carry session ids, tokens or
 * patient identifiers), no credentials.
 */
export function redactUrl(url: string | URL): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}${u.search ? "?…" : ""}`;
}

/** The path part of a URL for evidence (no query, no fragment). */
export function urlPath(url: string | URL): string {
  return new URL(url).pathname;
}

/** True when `host` is the practice's domain, one of its subdomains, or the website's own host. */
export function isSameSiteHost(host: string, domain: string, siteHost: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return h === siteHost || h === domain || h.endsWith(`.${domain}`);
}

/** The URL without its fragment, as the crawl keys pages. */
export function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}
