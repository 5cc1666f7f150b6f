import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiKey } from "../services/api-keys.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

// A fixed clock 10 s into a minute: every request of a test falls in one rate-limit window.
const NOW = new Date("2026-11-22T12:00:10.000Z");
const WINDOW_RESET = String(Date.parse("2026-11-22T12:01:00.000Z") / 1000);

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ now: () => NOW });
  const owner = await accountWithKey(t.server.deps, { plan: "professional" });
  await gradedPractice(t.server.deps, owner.accountId, "1234567893");
});
afterAll(async () => {
  await t.close();
});

describe("authentication", () => {
  it("401 missing_credentials without a key, with rate-limit headers (counted per client IP)", async () => {
    const res = await t.request("/v1/a2a/grade/1234567893");
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("missing_credentials");
    expect(res.headers["x-ratelimit-limit"]).toBe("60");
    expect(res.headers["x-ratelimit-reset"]).toBe(WINDOW_RESET);
  });

  it("401 invalid_credentials for a wrong or malformed key", async () => {
    for (const key of ["hcs_live_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB", "garbage", "Bearer x"]) {
      const res = await t.request("/v1/a2a/grade/1234567893", { headers: { "X-API-Key": key } });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe("invalid_credentials");
    }
  });

  it("Group B wants X-API-Key; a Bearer header alone is not accepted there", async () => {
    const a = await accountWithKey(t.server.deps);
    const res = await t.request("/v1/a2a/grade/1234567893", { headers: { Authorization: `Bearer ${a.apiKey}` } });
    expect(res.status).toBe(401);
    expect(res.json.error.message).toContain("X-API-Key");
  });

  it("a revoked key is refused with 403 key_revoked", async () => {
    const a = await accountWithKey(t.server.deps);
    expect((await t.request("/v1/a2a/grade/1234567893", { headers: { "X-API-Key": a.apiKey } })).status).toBe(200);
    await revokeApiKey(t.server.deps, a.keyId);
    const res = await t.request("/v1/a2a/grade/1234567893", { headers: { "X-API-Key": a.apiKey } });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("key_revoked");
  });

  it("Group A needs Bearer and a Professional or Enterprise plan (403 plan_required)", async () => {
    const free = await accountWithKey(t.server.deps, { plan: "free" });
    const res = await t.request("/v1/practice", { headers: { Authorization: `Bearer ${free.apiKey}` } });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({ code: "plan_required", details: { plan: "free" } });
    const missing = await t.request("/v1/practice", { headers: { "X-API-Key": free.apiKey } });
    expect(missing.status).toBe(401);
    const pro = await accountWithKey(t.server.deps, { plan: "professional" });
    const none = await t.request("/v1/practice", { headers: { Authorization: `Bearer ${pro.apiKey}` } });
    expect(none.status).toBe(404);
    expect(none.json.error.code).toBe("not_found");
  });
});

describe("rate limits", () => {
  it("the 61st Group B request in a minute gets 429 with headers and Retry-After", async () => {
    const a = await accountWithKey(t.server.deps, { credits: 0 });
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof t.request>> | undefined;
    for (let i = 1; i <= 61; i++) {
      last = await t.request("/v1/a2a/grade/1234567890", { headers: { "X-API-Key": a.apiKey } });
      statuses.push(last.status);
      if (i === 1) expect(last.headers["x-ratelimit-remaining"]).toBe("59");
      if (i === 60) expect(last.headers["x-ratelimit-remaining"]).toBe("0");
    }
    expect(statuses.slice(0, 60).every((s) => s === 400)).toBe(true);
    expect(last!.status).toBe(429);
    expect(last!.json.error.code).toBe("rate_limited");
    expect(last!.headers["x-ratelimit-limit"]).toBe("60");
    expect(last!.headers["x-ratelimit-remaining"]).toBe("0");
    expect(last!.headers["x-ratelimit-reset"]).toBe(WINDOW_RESET);
    expect(last!.headers["retry-after"]).toBe("50");
  });

  it("a bulk key gets 600 per minute", async () => {
    const a = await accountWithKey(t.server.deps, { tier: "bulk", credits: 0 });
    const statuses = [];
    for (let batch = 0; batch < 6; batch++) {
      const rs = await Promise.all(
        Array.from({ length: 100 }, () =>
          t.request("/v1/a2a/grade/1234567890", { headers: { "X-API-Key": a.apiKey } }),
        ),
      );
      statuses.push(...rs.map((r) => r.status));
    }
    expect(statuses.every((s) => s === 400)).toBe(true);
    const res = await t.request("/v1/a2a/grade/1234567890", { headers: { "X-API-Key": a.apiKey } });
    expect(res.status).toBe(429);
    expect(res.headers["x-ratelimit-limit"]).toBe("600");
  });

  it("every Group B response carries the headers, unknown paths included", async () => {
    const a = await accountWithKey(t.server.deps);
    for (const path of ["/v1/a2a/nothing-here", "/v1/a2a", "/v1/a2a/grade/1234567893"]) {
      const res = await t.request(path, { headers: { "X-API-Key": a.apiKey } });
      expect(res.headers["x-ratelimit-limit"], path).toBeDefined();
      expect(res.headers["x-ratelimit-remaining"], path).toBeDefined();
      expect(res.headers["x-ratelimit-reset"], path).toBe(WINDOW_RESET);
    }
  });

  it("Group A: 100 per minute per key", async () => {
    const a = await accountWithKey(t.server.deps, { plan: "enterprise" });
    let status = 0;
    for (let i = 1; i <= 101; i++)
      status = (await t.request("/v1/practice", { headers: { Authorization: `Bearer ${a.apiKey}` } })).status;
    expect(status).toBe(429);
  });
});

describe("secrets stay out of logs", () => {
  it("no API key appears in anything the server logged", () => {
    expect(t.logs.length).toBeGreaterThan(100);
    const all = t.logs.join("\n");
    expect(all).not.toContain("hcs_live_");
    expect(all).not.toMatch(/[0-9A-Za-z]{12}_[0-9A-Za-z]{32}/);
  });
});
