import thirdPartyWeb from "third-party-web/nostats-subset.js";
import type { PageAnalysis } from "./page-analysis.js";
import {
  type CatalogueTracker,
  hostMatches,
  TRACKER_CATALOGUE,
  type TrackerIdentity,
  type TrackerKind,
} from "./tracker-catalogue.js";

export interface TrackerHit {
  readonly tracker: TrackerIdentity;
  /** How the page loads it: a script/img/iframe/link element, or a snippet inside an inline script. */
  readonly via: "script" | "img" | "iframe" | "link" | "inline";
  /** The host it talks to (when known from a URL). */
  readonly host: string | null;
}

/** third-party-web categories that are tracking in OCR's sense; CDNs, hosting, video, chat and consent tools are not. */
const TRACKING_CATEGORIES: Readonly<Record<string, TrackerKind>> = {
  ad: "ad_pixel",
  analytics: "analytics",
  "tag-manager": "tag_manager",
  social: "social",
  marketing: "marketing",
};

// URLs named in inline snippets: "https://host/path", protocol-relative "//host/path", or a quoted bare
// "host/path" (FullStory's style). Group 1 or 3 is the host, the whole match the URL.
const URL_IN_SCRIPT =
  /(?:https?:)?\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)+)([^\s'"`)\\]*)|['"]([a-z0-9-]+(?:\.[a-z0-9-]+)+)\/[\w./-]*['"]/gi;

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
}

const identity = (entry: CatalogueTracker): TrackerIdentity => ({
  id: entry.id,
  name: entry.name,
  vendor: entry.vendor,
  kind: entry.kind,
});

const CLAIMED_ENTITIES = new Map(TRACKER_CATALOGUE.flatMap((e) => e.entities.map((name) => [name, e] as const)));

/** Identifies the tracker behind a URL or host: our catalogue first, then the third-party-web entity list. */
export function identifyTracker(url: string, host: string): TrackerIdentity | null {
  for (const entry of TRACKER_CATALOGUE) {
    if (entry.patterns.some((p) => p.test(url)) || entry.hosts.some((h) => hostMatches(host, h)))
      return identity(entry);
  }
  const entity = thirdPartyWeb.getEntity(`https://${host}/`);
  if (!entity) return null;
  const claimed = CLAIMED_ENTITIES.get(entity.name);
  if (claimed) return identity(claimed);
  const kind = TRACKING_CATEGORIES[entity.category];
  return kind ? { id: `tpw_${slug(entity.name)}`, name: entity.name, vendor: entity.company, kind } : null;
}

/**
 * Third-party trackers a page loads, from its resource URLs and the snippets in its inline scripts (pure).
 * `isFirstParty` keeps the practice's own hosts out, whatever list they might appear on.
 */
export function detectTrackers(page: PageAnalysis, isFirstParty: (host: string) => boolean): TrackerHit[] {
  const hits = new Map<string, TrackerHit>();
  const add = (tracker: TrackerIdentity | null, via: TrackerHit["via"], host: string | null) => {
    if (tracker && !hits.has(tracker.id)) hits.set(tracker.id, { tracker, via, host });
  };
  for (const resource of page.resources) {
    const host = new URL(resource.url).hostname.toLowerCase();
    if (!isFirstParty(host)) add(identifyTracker(resource.url, host), resource.element, host);
  }
  for (const script of page.inlineScripts) {
    for (const entry of TRACKER_CATALOGUE) {
      if (entry.patterns.some((p) => p.test(script))) {
        add({ id: entry.id, name: entry.name, vendor: entry.vendor, kind: entry.kind }, "inline", null);
      }
    }
    for (const m of script.matchAll(URL_IN_SCRIPT)) {
      const host = (m[1] ?? m[3] ?? "").toLowerCase();
      const url = m[1] ? `https://${host}${m[2] ?? ""}` : `https://${m[0].slice(1, -1)}`;
      if (host && !isFirstParty(host)) add(identifyTracker(url, host), "inline", host);
    }
  }
  return [...hits.values()];
}
