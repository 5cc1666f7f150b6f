import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import { urlPath } from "../site/urls.js";
import type { CrawledPage } from "./crawl.js";
import type { PageLink } from "./page-analysis.js";

// A Notice of Privacy Practices (45 CFR 164.520) by its usual names; "HIPAA" links on practice sites point to it.
const NPP = /notice[\s_-]+of[\s_-]+privacy[\s_-]+practices|\bnpp\b|hipaa/i;
const PRIVACY = /privacy/i;

function linkWords(link: PageLink): string {
  return `${link.text} ${decodeURIComponentSafe(new URL(link.url).pathname)}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Privacy-policy and NPP links across the crawled pages (pure). */
export function privacyLinks(pages: readonly CrawledPage[]): { npp: PageLink[]; privacy: PageLink[] } {
  const links = pages.flatMap((p) => p.analysis?.links ?? []);
  // A page that is itself the notice counts as well as a link to it.
  const selves = pages.filter((p) => p.analysis).map((p) => ({ url: p.url, text: p.analysis?.headings ?? "" }));
  const all = [...links, ...selves];
  return {
    npp: all.filter((l) => NPP.test(linkWords(l))),
    privacy: all.filter((l) => PRIVACY.test(linkWords(l))),
  };
}

/** Findings about the Notice of Privacy Practices and privacy policy links (pure). */
export function evaluatePrivacyNotice(siteHost: string, pages: readonly CrawledPage[]): FindingParsed[] {
  const { npp, privacy } = privacyLinks(pages);
  const base = {
    category: "privacy_compliance",
    controls: CONTROLS.privacyNotice,
    subject: siteHost,
    host: siteHost,
  } as const;
  const examined = pages.map((p) => urlPath(p.url));
  if (npp.length === 0 && privacy.length === 0) {
    return [
      externalFinding({
        ...base,
        check_id: "privacy.notice.missing",
        severity: "medium",
        title: "No privacy notice on the website",
        detail: `None of the ${pages.length} pages examined links to a Notice of Privacy Practices or a privacy policy. A covered entity with a website must post its Notice of Privacy Practices prominently on it (45 CFR 164.520(c)(3)(i)).`,
        evidence: { pages_examined: examined },
        remediation:
          'Publish the Notice of Privacy Practices as a page and link it from every page\'s footer ("Notice of Privacy Practices").',
      }),
    ];
  }
  if (npp.length === 0) {
    return [
      externalFinding({
        ...base,
        check_id: "privacy.notice.npp_missing",
        severity: "low",
        title: "Privacy policy found, but no Notice of Privacy Practices",
        detail:
          "The site links to a privacy policy, which is not the HIPAA Notice of Privacy Practices the Privacy Rule requires a covered entity to post on its website.",
        evidence: { privacy_links: [...new Set(privacy.map((l) => urlPath(l.url)))], pages_examined: examined },
        remediation:
          'Publish the Notice of Privacy Practices and link it next to the privacy policy ("Notice of Privacy Practices").',
      }),
    ];
  }
  return [];
}

export const privacyNoticeCheck: ExternalCheck = {
  id: "privacy.notice",
  category: "privacy_compliance",
  title: "Notice of Privacy Practices",
  subject: "site",
  timeoutMs: 30_000,
  async run(ctx): Promise<CheckOutcome> {
    const crawl = await ctx.crawl();
    if (!crawl.ok) return { status: crawl.status, detail: crawl.detail };
    const { npp, privacy } = privacyLinks(crawl.pages);
    return {
      status: "ok",
      findings: evaluatePrivacyNotice(ctx.target.siteHost, crawl.pages),
      facts: {
        npp_links: [...new Set(npp.map((l) => urlPath(l.url)))],
        privacy_links: [...new Set(privacy.map((l) => urlPath(l.url)))],
      },
    };
  },
};
