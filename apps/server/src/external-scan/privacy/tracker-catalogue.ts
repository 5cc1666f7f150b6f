/**
 * Kinds of tracking technology, in the terms of HHS OCR's guidance "Use of Online Tracking Technologies by
 * HIPAA Covered Entities and Business Associates" (Dec 2022, updated Mar 2024): pixels and session replay send
 * what a visitor does on a page to the vendor, which on a login, portal, scheduling or intake page is PHI.
 */
export type TrackerKind = "ad_pixel" | "session_replay" | "analytics" | "tag_manager" | "social" | "marketing";

export interface TrackerIdentity {
  /** Stable id (finding ids include it). */
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly kind: TrackerKind;
}

export interface CatalogueTracker extends TrackerIdentity {
  /** Hosts (and their subdomains) that only serve this tracker. */
  readonly hosts: readonly string[];
  /** Patterns over resource URLs and inline script text that identify the tracker where hosts alone cannot. */
  readonly patterns: readonly RegExp[];
  /** third-party-web entity names this entry stands for, so one tracker is never reported under two names. */
  readonly entities: readonly string[];
}

const t = (
  id: string,
  name: string,
  vendor: string,
  kind: TrackerKind,
  entities: string[],
  hosts: string[],
  patterns: RegExp[] = [],
): CatalogueTracker => ({ id, name, vendor, kind, entities, hosts, patterns });

/**
 * Our own list for the trackers OCR's guidance and enforcement focus on (ad pixels and session replay), with the
 * hosts and snippet markers their vendors' install instructions use. Checked before the third-party-web list
 * because it names products (Meta Pixel, not just "Facebook") and knows the snippets that build URLs in script.
 * Order matters where hosts are shared: googletagmanager.com serves both gtag.js and GTM.
 */
export const TRACKER_CATALOGUE: readonly CatalogueTracker[] = [
  t(
    "meta_pixel",
    "Meta Pixel",
    "Meta",
    "ad_pixel",
    [],
    [],
    [/connect\.facebook\.net\/[\w-]+\/fbevents\.js/i, /facebook\.com\/tr[/?]/i, /fbq\(\s*['"]init['"]/],
  ),
  t(
    "google_ads",
    "Google Ads conversion tracking",
    "Google",
    "ad_pixel",
    ["Google/Doubleclick Ads"],
    ["googleadservices.com", "googleads.g.doubleclick.net"],
    [/gtag\(\s*['"]config['"]\s*,\s*['"]AW-/],
  ),
  t(
    "google_analytics",
    "Google Analytics",
    "Google",
    "analytics",
    ["Google Analytics"],
    ["google-analytics.com", "analytics.google.com"],
    [/googletagmanager\.com\/gtag\/js/i, /gtag\(\s*['"]config['"]\s*,\s*['"](G|UA)-/],
  ),
  t(
    "google_tag_manager",
    "Google Tag Manager",
    "Google",
    "tag_manager",
    ["Google Tag Manager"],
    [],
    [/googletagmanager\.com\/(gtm\.js|ns\.html)/i],
  ),
  t(
    "hotjar",
    "Hotjar",
    "Contentsquare",
    "session_replay",
    ["Hotjar"],
    ["hotjar.com", "hotjar.io"],
    [/static\.hotjar\.com\/c\/hotjar-/i],
  ),
  t(
    "fullstory",
    "FullStory",
    "FullStory",
    "session_replay",
    ["FullStory"],
    ["fullstory.com"],
    [/_fs_namespace/, /edge\.fullstory\.com\/s\/fs\.js/i],
  ),
  t(
    "microsoft_clarity",
    "Microsoft Clarity",
    "Microsoft",
    "session_replay",
    ["Clarity"],
    ["clarity.ms"],
    [/clarity\.ms\/tag\//i],
  ),
  t("tiktok_pixel", "TikTok Pixel", "TikTok", "ad_pixel", ["TikTok"], ["analytics.tiktok.com"], [/ttq\.load\(/]),
  t(
    "linkedin_insight",
    "LinkedIn Insight Tag",
    "LinkedIn",
    "ad_pixel",
    ["LinkedIn Ads"],
    ["snap.licdn.com", "px.ads.linkedin.com"],
    [/_linkedin_partner_id/],
  ),
  t("microsoft_uet", "Microsoft Advertising UET", "Microsoft", "ad_pixel", ["Bing Ads"], ["bat.bing.com"]),
  t(
    "x_pixel",
    "X (Twitter) Pixel",
    "X",
    "ad_pixel",
    ["Twitter Online Conversion Tracking"],
    ["static.ads-twitter.com", "ads-twitter.com", "analytics.twitter.com"],
  ),
  t(
    "pinterest_tag",
    "Pinterest Tag",
    "Pinterest",
    "ad_pixel",
    ["Pinterest"],
    ["ct.pinterest.com"],
    [/s\.pinimg\.com\/ct\/core\.js/i],
  ),
  t("snap_pixel", "Snap Pixel", "Snap", "ad_pixel", ["Snapchat"], ["tr.snapchat.com", "sc-static.net"]),
  t("mouseflow", "Mouseflow", "Mouseflow", "session_replay", ["Mouseflow"], ["mouseflow.com"]),
  t(
    "lucky_orange",
    "Lucky Orange",
    "Lucky Orange",
    "session_replay",
    ["Lucky Orange"],
    ["luckyorange.com", "luckyorange.net"],
  ),
  t("smartlook", "Smartlook", "Cisco", "session_replay", ["Smartlook"], ["smartlook.com", "smartlook.cloud"]),
  t("crazy_egg", "Crazy Egg", "Crazy Egg", "session_replay", ["Crazy Egg"], ["crazyegg.com"]),
  t(
    "logrocket",
    "LogRocket",
    "LogRocket",
    "session_replay",
    [],
    ["logrocket.io", "lr-ingest.io", "lr-in.com", "lr-in-prod.com"],
  ),
  t(
    "yandex_metrica",
    "Yandex Metrica",
    "Yandex",
    "session_replay",
    ["Yandex Metrica"],
    ["mc.yandex.ru", "mc.yandex.com"],
  ),
  t("heap", "Heap", "Contentsquare", "analytics", ["Heap"], ["heapanalytics.com", "heap-api.com"]),
];

/** True when `host` is `domain` or one of its subdomains. */
export function hostMatches(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}
