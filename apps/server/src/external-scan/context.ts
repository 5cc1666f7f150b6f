import { type CachedDns, createCachedDns } from "./cached-dns.js";
import { createHostGuard, type HostResolution } from "./guard.js";
import type { ExternalScanIO } from "./io/types.js";
import { type CrawlLimits, type CrawlOutcome, crawlSite } from "./privacy/crawl.js";
import { createPageFetcher } from "./site/page-fetch.js";
import { createSiteProbes, type SiteProbes } from "./site/site-probes.js";
import { isSameSiteHost } from "./site/urls.js";
import type { ScanTarget } from "./target.js";

/** What every check of one scan shares: the target, the clock, cached DNS, guarded site probes and the crawl. */
export interface ScanContext {
  readonly target: ScanTarget;
  /** The scan's time, fixed at its start (certificate expiry and end-of-life dates are judged against it). */
  readonly now: Date;
  /** Aborts when the scan's budget ends. */
  readonly signal: AbortSignal;
  readonly io: ExternalScanIO;
  readonly dns: CachedDns;
  readonly guard: (host: string) => Promise<HostResolution>;
  readonly site: SiteProbes;
  /** The same-site pages reachable from the website, crawled once per scan. */
  crawl(): Promise<CrawlOutcome>;
}

export function createScanContext(deps: {
  readonly target: ScanTarget;
  readonly io: ExternalScanIO;
  readonly now: Date;
  readonly signal: AbortSignal;
  readonly allowPrivateTargets: boolean;
  readonly crawlLimits?: CrawlLimits;
}): ScanContext {
  const { target, io, signal } = deps;
  const dns = createCachedDns(io.dns, signal);
  const guard = createHostGuard(dns, deps.allowPrivateTargets);
  const fetchPage = createPageFetcher({ http: io.http, guard, signal });
  const site = createSiteProbes({ target, guard, tls: io.tls, fetchPage, signal });
  const isSameSite = (url: URL) => isSameSiteHost(url.hostname.replace(/^\[|\]$/g, ""), target.domain, target.siteHost);
  let crawl: Promise<CrawlOutcome> | undefined;
  return {
    target,
    now: deps.now,
    signal,
    io,
    dns,
    guard,
    site,
    crawl() {
      crawl ??= (async () => {
        // A site without HTTPS is still crawled over HTTP: its cleartext forms are the finding.
        const https = await site.httpsHome();
        const start = https.ok ? https : await site.httpHome();
        return crawlSite(start.ok ? start : https, {
          fetchPage,
          isSameSite,
          signal,
          ...(deps.crawlLimits ? { limits: deps.crawlLimits } : {}),
        });
      })();
      return crawl;
    },
  };
}
