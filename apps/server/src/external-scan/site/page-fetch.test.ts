import { describe, expect, it } from "vitest";
import type { HostResolution } from "../guard.js";
import type { HttpIO, HttpOutcome, HttpRequest } from "../io/types.js";
import { createPageFetcher } from "./page-fetch.js";

/** An HttpIO answering from a table of URLs, recording every request it gets. */
function fakeHttp(routes: Record<string, HttpOutcome>): HttpIO & { requests: HttpRequest[] } {
  const requests: HttpRequest[] = [];
  return {
    requests,
    get: async (request) => {
      requests.push(request);
      return routes[request.url] ?? { ok: false, code: "connection_refused" };
    },
  };
}
const ok = (status: number, headers: Record<string, string> = {}, body = ""): HttpOutcome => ({
  ok: true,
  status,
  headers,
  set_cookies: [],
  body,
  truncated: false,
});
const guard = (table: Record<string, HostResolution>) => async (host: string) =>
  table[host] ?? ({ ok: false, host, status: "unreachable", detail: `${host} did not resolve (nxdomain)` } as const);
const publicHost = (host: string, address: string): HostResolution => ({ ok: true, host, addresses: [address] });
const signal = new AbortController().signal;

describe("createPageFetcher", () => {
  it("follows redirects, connecting each hop to the address the guard cleared", async () => {
    const http = fakeHttp({
      "http://clinic.example/": ok(301, { location: "https://www.clinic.example/?ref=old" }),
      "https://www.clinic.example/?ref=old": ok(200, { "content-type": "text/html" }, "<h1>Hi</h1>"),
    });
    const fetchPage = createPageFetcher({
      http,
      guard: guard({
        "clinic.example": publicHost("clinic.example", "203.0.113.7"),
        "www.clinic.example": publicHost("www.clinic.example", "203.0.113.8"),
      }),
      signal,
    });
    const result = await fetchPage("http://clinic.example/");
    expect(result.ok && result.response.body).toBe("<h1>Hi</h1>");
    expect(http.requests.map((r) => [r.url, r.address])).toEqual([
      ["http://clinic.example/", "203.0.113.7"],
      ["https://www.clinic.example/?ref=old", "203.0.113.8"],
    ]);
    // The chain is evidence: query strings are redacted.
    expect(result.chain).toEqual([
      { url: "http://clinic.example/", status: 301 },
      { url: "https://www.clinic.example/?…", status: 200 },
    ]);
  });

  it("requests each URL once per scan: a redirect to a page already fetched reuses its answer", async () => {
    const http = fakeHttp({
      "https://clinic.example/": ok(200, { "content-type": "text/html" }, "<h1>Home</h1>"),
      "http://clinic.example/": ok(301, { location: "https://clinic.example/" }),
    });
    const fetchPage = createPageFetcher({
      http,
      guard: guard({ "clinic.example": publicHost("clinic.example", "203.0.113.7") }),
      signal,
    });
    const [https, plain] = await Promise.all([
      fetchPage("https://clinic.example/"),
      fetchPage("http://clinic.example/"),
    ]);
    expect(https.ok && https.response.body).toBe("<h1>Home</h1>");
    expect(plain.ok && plain.response.body).toBe("<h1>Home</h1>");
    expect(plain.chain.map((h) => h.status)).toEqual([301, 200]);
    expect(http.requests.map((r) => r.url)).toEqual(["https://clinic.example/", "http://clinic.example/"]);
  });

  it("sends nothing to a host the guard refuses, even mid-redirect", async () => {
    const http = fakeHttp({ "https://clinic.example/": ok(302, { location: "http://intranet.clinic.example/admin" }) });
    const fetchPage = createPageFetcher({
      http,
      guard: guard({
        "clinic.example": publicHost("clinic.example", "203.0.113.7"),
        "intranet.clinic.example": {
          ok: false,
          host: "intranet.clinic.example",
          status: "refused",
          detail: "resolves to 10.0.0.5",
          blocked: ["10.0.0.5"],
        },
      }),
      signal,
    });
    const result = await fetchPage("https://clinic.example/");
    expect(result).toMatchObject({ ok: false, status: "refused" });
    expect(http.requests.map((r) => r.url)).toEqual(["https://clinic.example/"]);
  });

  it("returns the redirect itself when the caller does not want to follow it", async () => {
    const http = fakeHttp({
      "https://clinic.example/portal": ok(302, { location: "https://mychart.health-system.example/" }),
    });
    const fetchPage = createPageFetcher({
      http,
      guard: guard({ "clinic.example": publicHost("clinic.example", "203.0.113.7") }),
      signal,
    });
    const result = await fetchPage("https://clinic.example/portal", {
      follow: (url) => url.hostname.endsWith("clinic.example"),
    });
    expect(result.ok && result.response.status).toBe(302);
    expect(http.requests).toHaveLength(1);
  });

  it("stops after six redirects", async () => {
    const routes: Record<string, HttpOutcome> = {};
    for (let i = 0; i < 20; i++) routes[`https://clinic.example/${i}`] = ok(302, { location: `/${i + 1}` });
    const http = fakeHttp(routes);
    const fetchPage = createPageFetcher({
      http,
      guard: guard({ "clinic.example": publicHost("clinic.example", "203.0.113.7") }),
      signal,
    });
    const result = await fetchPage("https://clinic.example/0");
    expect(result.ok && result.response.status).toBe(302);
    expect(http.requests).toHaveLength(7);
  });

  it("maps connection failures to check statuses", async () => {
    const fetchPage = createPageFetcher({
      http: fakeHttp({ "https://slow.example/": { ok: false, code: "timeout" } }),
      guard: guard({ "slow.example": publicHost("slow.example", "203.0.113.9") }),
      signal,
    });
    expect(await fetchPage("https://slow.example/")).toMatchObject({ ok: false, status: "timeout", code: "timeout" });
    expect(await fetchPage("https://nowhere.example/")).toMatchObject({ ok: false, status: "unreachable" });
  });
});
