import type { FindingParsed, Severity } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import { isSameSiteHost, urlPath } from "../site/urls.js";
import type { CrawledPage } from "./crawl.js";
import { isSensitivePageKind, type PageKind } from "./page-kind.js";
import type { TrackerIdentity, TrackerKind } from "./tracker-catalogue.js";
import { detectTrackers } from "./trackers.js";

/** A page with the trackers found on it. */
export interface TrackedPage {
  readonly url: string;
  readonly kind: PageKind;
  readonly trackers: readonly TrackerIdentity[];
}

const KIND_WORDS: Record<TrackerKind, string> = {
  ad_pixel: "advertising pixel",
  session_replay: "session-replay script",
  analytics: "analytics script",
  tag_manager: "tag manager",
  social: "social media plugin",
  marketing: "marketing tracker",
};

// On public pages, tools that send behaviour to ad networks or record sessions weigh more than site analytics.
const PUBLIC_PAGE_SEVERITY: Record<TrackerKind, Severity> = {
  ad_pixel: "medium",
  session_replay: "medium",
  social: "medium",
  marketing: "low",
  analytics: "low",
  tag_manager: "low",
};

/**
 * Findings about trackers (pure): one per tracker and page class. A tracker on any login, portal, scheduling or
 * intake page is high severity and caps the grade (phi_tracker_on_authenticated_page); elsewhere it is a
 * lower-severity disclosure risk.
 */
export function evaluateTrackers(siteHost: string, pages: readonly TrackedPage[]): FindingParsed[] {
  const byTracker = new Map<string, { tracker: TrackerIdentity; sensitive: TrackedPage[]; general: TrackedPage[] }>();
  for (const page of pages) {
    for (const tracker of page.trackers) {
      const entry = byTracker.get(tracker.id) ?? { tracker, sensitive: [], general: [] };
      (isSensitivePageKind(page.kind) ? entry.sensitive : entry.general).push(page);
      byTracker.set(tracker.id, entry);
    }
  }
  const findings: FindingParsed[] = [];
  const pageList = (ps: TrackedPage[]) => ps.map((p) => ({ path: urlPath(p.url), kind: p.kind }));
  for (const { tracker, sensitive, general } of byTracker.values()) {
    const what = `${tracker.name} (${tracker.vendor} ${KIND_WORDS[tracker.kind]})`;
    const evidence = { tracker: tracker.name, vendor: tracker.vendor, kind: tracker.kind };
    if (sensitive.length > 0) {
      findings.push(
        externalFinding({
          category: "privacy_compliance",
          controls: CONTROLS.tracking,
          subject: `${tracker.id}@${siteHost}`,
          host: siteHost,
          check_id: "privacy.trackers.authenticated_page",
          severity: "high",
          title: `${tracker.name} runs on patient ${[...new Set(sensitive.map((p) => p.kind))].join("/")} pages`,
          detail: `${what} loads on ${sensitive.map((p) => urlPath(p.url)).join(", ")}. HHS OCR's guidance on online tracking technologies treats what a tracker collects on login, portal, scheduling and intake pages as PHI; disclosing it to a vendor without a business associate agreement is an impermissible disclosure.`,
          evidence: { ...evidence, pages: pageList(sensitive) },
          remediation: `Remove ${tracker.name} from these pages (or use a HIPAA-eligible analytics service under a BAA), and review what it has already collected in your risk analysis.`,
          grade_cap: "phi_tracker_on_authenticated_page",
        }),
      );
    }
    if (general.length > 0) {
      findings.push(
        externalFinding({
          category: "privacy_compliance",
          controls: CONTROLS.tracking,
          subject: `${tracker.id}@${siteHost}/public`,
          host: siteHost,
          check_id: "privacy.trackers.public_page",
          severity: PUBLIC_PAGE_SEVERITY[tracker.kind],
          title: `${tracker.name} runs on the public website`,
          detail: `${what} loads on ${general.map((p) => urlPath(p.url)).join(", ")}. On public pages it can still tie a visitor's IP address to the conditions and services they read about; make sure it does not reach patient pages and that no PHI is sent to it.`,
          evidence: { ...evidence, pages: pageList(general) },
          remediation: `Confirm ${tracker.name} is needed, keep it off patient-facing pages, and configure it to collect no identifiers (or replace it with a tool whose vendor signs a BAA).`,
        }),
      );
    }
  }
  return findings;
}

/** The crawled pages with the trackers each loads, first-party hosts excluded (pure). */
export function trackedPages(pages: readonly CrawledPage[], domain: string, siteHost: string): TrackedPage[] {
  const firstParty = (host: string) => isSameSiteHost(host, domain, siteHost);
  return pages.flatMap((page) =>
    page.analysis
      ? [{ url: page.url, kind: page.kind, trackers: detectTrackers(page.analysis, firstParty).map((h) => h.tracker) }]
      : [],
  );
}

export const trackersCheck: ExternalCheck = {
  id: "privacy.trackers",
  category: "privacy_compliance",
  title: "Third-party trackers",
  subject: "site",
  timeoutMs: 30_000,
  async run(ctx): Promise<CheckOutcome> {
    const crawl = await ctx.crawl();
    if (!crawl.ok) return { status: crawl.status, detail: crawl.detail };
    const pages = trackedPages(crawl.pages, ctx.target.domain, ctx.target.siteHost);
    return {
      status: "ok",
      findings: evaluateTrackers(ctx.target.siteHost, pages),
      facts: {
        pages: pages.map((p) => ({ path: urlPath(p.url), kind: p.kind, trackers: p.trackers.map((t) => t.name) })),
        unreachable_pages: crawl.failed.length,
      },
    };
  },
};
