import { describe, expect, it } from "vitest";
import type { PageFetch } from "../site/page-fetch.js";
import { isSameSiteHost } from "../site/urls.js";
import { crawlSite, linkPriority } from "./crawl.js";

const html = (links: string[], extra = "") =>
  `<html><body>${links.map((href) => `<a href="${href}">${href}</a>`).join("")}${extra}</body></html>`;

function site(pages: Record<string, string>, redirects: Record<string, string> = {}) {
  const fetched: string[] = [];
  const respond = (url: string): PageFetch => {
    const target = redirects[url] ?? url;
    const body = pages[target];
    if (body === undefined)
      return { ok: false, status: "unreachable", code: "connection_refused", detail: "", url, chain: [] };
    return {
      ok: true,
      chain: [],
      response: {
        url: target,
        address: "203.0.113.7",
        status: 200,
        headers: { "content-type": "text/html" },
        set_cookies: [],
        body,
        truncated: false,
      },
    };
  };
  return {
    fetched,
    start: respond("https://www.clinic.example/"),
    fetchPage: async (url: string) => {
      fetched.push(url);
      return respond(url);
    },
  };
}
const isSameSite = (url: URL) => isSameSiteHost(url.hostname, "clinic.example", "www.clinic.example");
const signal = new AbortController().signal;

describe("crawlSite", () => {
  it("follows same-site links only, skips files, and visits each page once", async () => {
    const s = site({
      "https://www.clinic.example/": html([
        "/about",
        "/about#team",
        "https://portal.clinic.example/login",
        "https://facebook.com/clinic",
        "/forms/packet.pdf",
      ]),
      "https://www.clinic.example/about": html(["/"]),
      "https://portal.clinic.example/login": html([], '<input type="password" name="pw">'),
    });
    const result = await crawlSite(s.start, { fetchPage: s.fetchPage, isSameSite, signal });
    expect(s.fetched.sort()).toEqual(["https://portal.clinic.example/login", "https://www.clinic.example/about"]);
    expect(result.ok && result.pages.map((p) => [p.url, p.kind])).toEqual([
      ["https://www.clinic.example/", "general"],
      ["https://portal.clinic.example/login", "login"],
      ["https://www.clinic.example/about", "general"],
    ]);
  });

  it("spends a small page budget on patient-facing pages first", async () => {
    const links = [
      "/blog/1",
      "/blog/2",
      "/blog/3",
      "/blog/4",
      "/privacy",
      "/request-an-appointment",
      "/patient-portal",
    ];
    const pages: Record<string, string> = { "https://www.clinic.example/": html(links) };
    for (const l of links) pages[`https://www.clinic.example${l}`] = html([]);
    const s = site(pages);
    const result = await crawlSite(s.start, {
      fetchPage: s.fetchPage,
      isSameSite,
      signal,
      limits: { maxPages: 4, maxDepth: 2, concurrency: 4 },
    });
    expect(result.ok && result.pages.map((p) => new URL(p.url).pathname)).toEqual([
      "/",
      "/request-an-appointment",
      "/patient-portal",
      "/privacy",
    ]);
  });

  it("stops at the depth limit", async () => {
    const s = site({
      "https://www.clinic.example/": html(["/a"]),
      "https://www.clinic.example/a": html(["/b"]),
      "https://www.clinic.example/b": html(["/c"]),
      "https://www.clinic.example/c": html([]),
    });
    const result = await crawlSite(s.start, {
      fetchPage: s.fetchPage,
      isSameSite,
      signal,
      limits: { maxPages: 10, maxDepth: 2, concurrency: 2 },
    });
    expect(result.ok && result.pages.map((p) => [new URL(p.url).pathname, p.depth])).toEqual([
      ["/", 0],
      ["/a", 1],
      ["/b", 2],
    ]);
  });

  it("records pages it could not fetch and drops redirects onto pages it already has", async () => {
    const s = site(
      { "https://www.clinic.example/": html(["/home", "/gone"]) },
      { "https://www.clinic.example/home": "https://www.clinic.example/" },
    );
    const result = await crawlSite(s.start, { fetchPage: s.fetchPage, isSameSite, signal });
    expect(result.ok && result.pages).toHaveLength(1);
    expect(result.ok && result.failed).toEqual([{ url: "https://www.clinic.example/gone", status: "unreachable" }]);
  });

  it("passes on the start page's failure", async () => {
    const start: PageFetch = {
      ok: false,
      status: "timeout",
      code: "timeout",
      detail: "no answer",
      url: "https://www.clinic.example/",
      chain: [],
    };
    expect(await crawlSite(start, { fetchPage: async () => start, isSameSite, signal })).toEqual({
      ok: false,
      status: "timeout",
      detail: "no answer",
    });
  });
});

describe("linkPriority", () => {
  it("ranks patient pages over privacy pages over the rest", () => {
    expect(linkPriority({ url: "https://c.example/x", text: "Patient Portal" })).toBe(2);
    expect(linkPriority({ url: "https://c.example/hipaa", text: "" })).toBe(1);
    expect(linkPriority({ url: "https://c.example/blog", text: "Blog" })).toBe(0);
  });
});
