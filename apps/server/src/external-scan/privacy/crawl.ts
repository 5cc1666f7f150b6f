import type { CheckStatus, FailedCheckStatus } from "../check-status.js";
import type { FetchedResponse, PageFetch, PageFetcher } from "../site/page-fetch.js";
import { withoutFragment } from "../site/urls.js";
import { analyzePage, type PageAnalysis, type PageLink } from "./page-analysis.js";
import { classifyPage, kindOfText, type PageKind } from "./page-kind.js";

export interface CrawledPage {
  /** Final URL after redirects (internal; evidence shows it redacted). */
  readonly url: string;
  readonly depth: number;
  readonly status: number;
  readonly set_cookies: readonly string[];
  readonly kind: PageKind;
  /** null when the response was not HTML. */
  readonly analysis: PageAnalysis | null;
}

export type CrawlOutcome =
  | {
      readonly ok: true;
      readonly pages: readonly CrawledPage[];
      readonly failed: readonly { url: string; status: CheckStatus }[];
    }
  | { readonly ok: false; readonly status: FailedCheckStatus; readonly detail: string };

export interface CrawlLimits {
  readonly maxPages: number;
  readonly maxDepth: number;
  readonly concurrency: number;
}

/** A practice site's patient-facing pages are few and linked from the home page: a small, shallow crawl finds them. */
export const DEFAULT_CRAWL_LIMITS: CrawlLimits = { maxPages: 12, maxDepth: 2, concurrency: 4 };

// Links to files rather than pages.
const NOT_A_PAGE =
  /\.(pdf|jpe?g|png|gif|svg|webp|ico|css|js|json|xml|zip|docx?|xlsx?|pptx?|mp4|mp3|mov|avi|woff2?|ttf)$/i;

/**
 * Which links to visit first within the page budget: patient-facing pages (login, portal, scheduling, intake),
 * then privacy pages (they hold the Notice of Privacy Practices), then the rest in page order.
 */
export function linkPriority(link: PageLink): number {
  const url = new URL(link.url);
  const words = `${url.pathname.replace(/[/._-]+/g, " ")} ${link.text}`;
  if (kindOfText(words) !== "general") return 2;
  if (/privacy|hipaa|notice/i.test(words)) return 1;
  return 0;
}

function isHtml(response: FetchedResponse): boolean {
  const type = response.headers["content-type"] ?? "";
  return /html/i.test(type) || (type === "" && /^\s*<(!doctype|html)/i.test(response.body));
}

function toPage(response: FetchedResponse, depth: number): CrawledPage {
  const analysis = isHtml(response) ? analyzePage(response.url, response.body) : null;
  return {
    url: response.url,
    depth,
    status: response.status,
    set_cookies: response.set_cookies,
    kind: analysis ? classifyPage(response.url, analysis) : "general",
    analysis,
  };
}

/**
 * Follows same-site links from the start page, breadth-first within priority, up to the page and depth limits.
 * Only GET requests are made, no form is ever submitted, and every host passes the address policy in fetchPage.
 */
export async function crawlSite(
  start: PageFetch,
  deps: {
    readonly fetchPage: PageFetcher;
    readonly isSameSite: (url: URL) => boolean;
    readonly signal: AbortSignal;
    readonly limits?: CrawlLimits;
  },
): Promise<CrawlOutcome> {
  if (!start.ok) return { ok: false, status: start.status, detail: start.detail };
  const limits = deps.limits ?? DEFAULT_CRAWL_LIMITS;
  const pages: CrawledPage[] = [];
  const failed: { url: string; status: CheckStatus }[] = [];
  const seen = new Set<string>();
  const frontier: { link: PageLink; depth: number; priority: number; order: number }[] = [];
  let order = 0;

  const admit = (page: CrawledPage) => {
    seen.add(withoutFragment(new URL(page.url)));
    pages.push(page);
    if (!page.analysis || page.depth >= limits.maxDepth) return;
    for (const link of page.analysis.links) {
      const url = new URL(link.url);
      const key = withoutFragment(url);
      if (seen.has(key) || !deps.isSameSite(url) || NOT_A_PAGE.test(url.pathname)) continue;
      seen.add(key);
      frontier.push({ link, depth: page.depth + 1, priority: linkPriority(link), order: order++ });
    }
  };

  admit(toPage(start.response, 0));
  while (pages.length < limits.maxPages && frontier.length > 0 && !deps.signal.aborted) {
    frontier.sort((a, b) => b.priority - a.priority || a.depth - b.depth || a.order - b.order);
    const batch = frontier.splice(0, Math.min(limits.concurrency, limits.maxPages - pages.length));
    const results = await Promise.all(
      batch.map((item) => deps.fetchPage(item.link.url, { follow: deps.isSameSite }).then((r) => ({ item, r }))),
    );
    for (const { item, r } of results) {
      if (!r.ok) {
        failed.push({ url: r.url, status: r.status });
        continue;
      }
      const finalKey = withoutFragment(new URL(r.response.url));
      // A redirect onto a page already crawled (or off the site) adds nothing new.
      if (
        (finalKey !== withoutFragment(new URL(item.link.url)) && seen.has(finalKey)) ||
        !deps.isSameSite(new URL(r.response.url))
      ) {
        continue;
      }
      admit(toPage(r.response, item.depth));
    }
  }
  return { ok: true, pages, failed };
}
