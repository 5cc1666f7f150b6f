import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../catalogue/index.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";
import { compileHotRoutes, patternsOverlap } from "./hot-routes.js";

const handler = async () => {};

describe("hot routes: what may be dispatched ahead of the router", () => {
  it("tells overlapping patterns apart segment by segment", () => {
    expect(patternsOverlap("/v1/a2a/grade/:npi", "/v1/a2a/grade/batch")).toBe(true);
    expect(patternsOverlap("/v1/a2a/grade/:npi", "/v1/a2a/:kind/:id")).toBe(true);
    expect(patternsOverlap("/v1/a2a/grade/:npi", "/v1/a2a/breach/:npi")).toBe(false);
    expect(patternsOverlap("/v1/a2a/grade/:npi", "/v1/a2a/grade")).toBe(false);
    expect(patternsOverlap("/v1/a2a/grade/:npi", "/v1/a2a/grade/:npi/history")).toBe(false);
    expect(patternsOverlap("/api/a2a", "/api/a2a")).toBe(true);
    // Any other syntax counts as overlapping everything.
    expect(patternsOverlap("/api/a2a", "/files/*rest")).toBe(true);
    expect(patternsOverlap("/api/a2a", "/v1{/:version}")).toBe(true);
  });

  it("refuses at start-up a hot route another route could also match, or one it cannot compile", () => {
    expect(() =>
      compileHotRoutes(
        [{ method: "get", path: "/v1/a2a/grade/:npi", handler }],
        ["/v1/a2a/grade/:npi", "/v1/a2a/grade/x"],
      ),
    ).toThrow(/overlaps \/v1\/a2a\/grade\/x/);
    expect(() => compileHotRoutes([{ method: "get", path: "/v1/:group/grade", handler }], [])).toThrow(/only static/);
    expect(() =>
      compileHotRoutes([{ method: "get", path: "/v1/a2a/grade/:npi", handler }], ["/v1/a2a/grade/:npi", "/mcp"]),
    ).not.toThrow();
  });

  it("the catalogue's hot routes overlap no other route (the server starts)", () => {
    const paths = CATALOGUE.operations.flatMap((o) => (o.rest ? [o.rest.path] : []));
    expect(paths.filter((p) => patternsOverlap(p, "/v1/a2a/grade/:npi"))).toEqual(["/v1/a2a/grade/:npi"]);
  });
});

describe("GET /v1/a2a/grade/{npi}: the hot route answers as the router does", () => {
  let t: TestServer;
  let key: string;
  const NPI = "1245319599";
  beforeAll(async () => {
    t = await startTestServer();
    const a = await accountWithKey(t.server.deps, { credits: 10_000 });
    key = a.apiKey;
    await gradedPractice(t.server.deps, a.accountId, NPI);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (path: string, method = "GET") => t.request(path, { method, headers: { "X-API-Key": key } });

  it("the plain path (hot route), a trailing slash and an encoded NPI (router) give the same record", async () => {
    const plain = await get(`/v1/a2a/grade/${NPI}`);
    expect(plain.status).toBe(200);
    expect(plain.json.npi).toBe(NPI);
    expect(plain.headers["x-credits-charged"]).toBe("25");
    expect(plain.headers["x-ratelimit-limit"]).toBeDefined();
    expect(plain.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    for (const other of [`/v1/a2a/grade/${NPI}/`, `/v1/a2a/grade/%31${NPI.slice(1)}`]) {
      const res = await get(other);
      expect(res.status, other).toBe(200);
      expect(res.json).toEqual(plain.json);
      expect(res.headers["x-credits-charged"]).toBe("25");
    }
  });

  it("HEAD is refused 405 without running or a charge; other methods get the router's 405; bad NPIs 400", async () => {
    const head = await get(`/v1/a2a/grade/${NPI}`, "HEAD");
    expect([head.status, head.headers.allow]).toEqual([405, "GET"]);
    expect(head.text).toBe("");
    expect(head.headers["x-credits-charged"]).toBeUndefined();
    const del = await get(`/v1/a2a/grade/${NPI}`, "DELETE");
    expect(del.status).toBe(405);
    expect(del.json.error.code).toBe("method_not_allowed");
    const bad = await get("/v1/a2a/grade/123");
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("invalid_npi");
    const missing = await t.request(`/v1/a2a/grade/${NPI}`);
    expect(missing.status).toBe(401);
  });

  it("served ahead of Koa's chain, a lookup is logged and a refusal counted as through the chain", async () => {
    const ok = await get(`/v1/a2a/grade/${NPI}`);
    const line = t.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === "request" && l.request_id === ok.headers["x-request-id"]);
    expect(line).toMatchObject({ method: "GET", path: `/v1/a2a/grade/${NPI}`, status: 200 });
    expect(typeof line?.key_id).toBe("string");
    expect(typeof line?.ms).toBe("number");
    expect(t.logs.join("\n")).not.toContain(key);

    const refused = await t.request(`/v1/a2a/grade/${NPI}`);
    expect(refused.status).toBe(401);
    expect(refused.json.error.request_id).toBe(refused.headers["x-request-id"]);
    const metrics = await t.request("/metrics");
    expect(metrics.text).toMatch(/hcs_anonymous_refusals_total\{code="missing_credentials"\} [1-9]/);
  });

  it("the metrics name the route's pattern, never the raw path", async () => {
    await get(`/v1/a2a/grade/${NPI}`);
    const metrics = await t.request("/metrics");
    expect(metrics.text).toMatch(
      /hcs_http_requests_total\{method="GET",route="\/v1\/a2a\/grade\/:npi",status="200"\} \d+/,
    );
    expect(metrics.text).not.toContain(`route="/v1/a2a/grade/${NPI}"`);
  });

  // The label comes from our own state (ctx.state.route, set by each route: http/route-template.ts), not from the
  // router's private fields: the router's routes, the portal's pages and the hot routes all name their template.
  it("router routes, portal pages and hot routes are labelled by their template; a path no route serves is not", async () => {
    const count = async (method: string, route: string, status: number) => {
      const text = (await t.request("/metrics")).text;
      const line = text
        .split("\n")
        .find((l) => l.startsWith(`hcs_http_requests_total{method="${method}",route="${route}",status="${status}"} `));
      return line ? Number(line.split(" ").at(-1)) : 0;
    };
    const grade = "/v1/a2a/grade/:npi";
    const before = await count("GET", grade, 200);
    expect((await get(`/v1/a2a/grade/${NPI}`)).status).toBe(200); // hot route
    expect(await count("GET", grade, 200)).toBe(before + 1);
    expect((await get(`/v1/a2a/grade/%31${NPI.slice(1)}`)).status).toBe(200); // the router (encoded parameter)
    expect(await count("GET", grade, 200)).toBe(before + 2);

    expect((await t.request("/portal/sign-in")).status).toBe(200);
    expect(await count("GET", "/portal/sign-in", 200)).toBe(1);
    const event = await t.request("/portal/audit/events/some-event");
    expect(await count("GET", "/portal/audit/events/:id", event.status)).toBe(1);

    expect((await get("/v1/no/such/route")).status).toBe(404);
    expect(await count("GET", "(unmatched)", 404)).toBeGreaterThan(0);
    const text = (await t.request("/metrics")).text;
    expect(text).not.toContain("/v1/no/such/route");
    expect(text).not.toContain("some-event");
  });
});
