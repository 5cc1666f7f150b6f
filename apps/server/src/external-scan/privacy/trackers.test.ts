import { describe, expect, it } from "vitest";
import { isSameSiteHost } from "../site/urls.js";
import { readFixture } from "../test-support/fixtures.js";
import { analyzePage } from "./page-analysis.js";
import { detectTrackers, identifyTracker } from "./trackers.js";

const trackersOn = (fixture: string, url: string, domain: string) => {
  const page = analyzePage(url, readFixture(`html/${fixture}`));
  const host = new URL(url).hostname;
  return detectTrackers(page, (h) => isSameSiteHost(h, domain, host))
    .map((hit) => hit.tracker.name)
    .sort();
};

describe("detectTrackers", () => {
  it("finds Google Tag Manager from its snippet and <noscript> iframe, and nothing in fonts, maps, video or reCAPTCHA", () => {
    expect(trackersOn("home-gtm.html", "https://www.cedarpoint-clinic.example/", "cedarpoint-clinic.example")).toEqual([
      "Google Tag Manager",
    ]);
  });

  it("finds the Meta Pixel and Hotjar on a portal login page", () => {
    expect(
      trackersOn(
        "portal-login-meta-hotjar.html",
        "https://www.cedarpoint-clinic.example/portal/",
        "cedarpoint-clinic.example",
      ),
    ).toEqual(["Hotjar", "Meta Pixel"]);
  });

  it("finds session replay and ad pixels installed by snippet, but not a support chat widget", () => {
    expect(
      trackersOn(
        "scheduling-session-replay.html",
        "https://brightside-behavioral.example/schedule",
        "brightside-behavioral.example",
      ),
    ).toEqual(["FullStory", "LinkedIn Insight Tag", "Microsoft Clarity", "TikTok Pixel"]);
  });

  it("does not count a CDN-hosted library as a tracker", () => {
    expect(
      trackersOn(
        "intake-cleartext.html",
        "https://www.oakridge-family.example/new-patient.html",
        "oakridge-family.example",
      ),
    ).toEqual([]);
  });

  it("never reports the practice's own hosts", () => {
    const page = analyzePage(
      "https://analytics.clinic.example/",
      '<script src="https://analytics.clinic.example/matomo.js"></script>',
    );
    expect(detectTrackers(page, (h) => isSameSiteHost(h, "clinic.example", "www.clinic.example"))).toEqual([]);
  });
});

describe("identifyTracker", () => {
  it("prefers our product names over third-party-web's entity for the same vendor", () => {
    expect(identifyTracker("https://www.googletagmanager.com/gtag/js?id=G-1", "www.googletagmanager.com")?.id).toBe(
      "google_analytics",
    );
    expect(identifyTracker("https://www.googletagmanager.com/", "www.googletagmanager.com")?.id).toBe(
      "google_tag_manager",
    );
    expect(identifyTracker("https://bat.bing.com/bat.js", "bat.bing.com")).toMatchObject({
      id: "microsoft_uet",
      kind: "ad_pixel",
    });
  });

  it("falls back to third-party-web for tracking entities our list does not name", () => {
    expect(
      identifyTracker("https://cdn.segment.com/analytics.js/v1/key/analytics.min.js", "cdn.segment.com"),
    ).toMatchObject({
      id: "tpw_segment",
      kind: "analytics",
    });
  });

  it("ignores third-party-web entities that are not tracking (CDN, video, chat)", () => {
    expect(identifyTracker("https://fonts.googleapis.com/css2", "fonts.googleapis.com")).toBeNull();
    expect(identifyTracker("https://www.youtube.com/embed/x", "www.youtube.com")).toBeNull();
    expect(identifyTracker("https://js.intercomcdn.com/x.js", "js.intercomcdn.com")).toBeNull();
  });
});
