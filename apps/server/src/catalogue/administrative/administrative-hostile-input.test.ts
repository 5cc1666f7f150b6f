import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

// hipaa.vendor_risk is left out: a vendor domain recorded by the fuzz would be scanned, and scans belong to
// vendor-risk.test.ts's loopback lab. The resolver points at a closed loopback port all the same.
let t: TestServer;
let key: string;
const NPI = "1234567893";
beforeAll(async () => {
  t = await startTestServer({ env: { HCS_DNS_SERVERS: "127.0.0.1:9" } });
  const a = await accountWithKey(t.server.deps, { plan: "enterprise", credits: 1_000_000 });
  key = a.apiKey;
  await gradedPractice(t.server.deps, a.accountId, NPI);
}, 60_000);
afterAll(async () => {
  await t.close();
});

const BODY_ROUTES = [
  ["POST", "/v1/policies/generate", "bearer"],
  ["POST", "/v1/risk-assessment", "bearer"],
  ["POST", "/v1/incidents", "bearer"],
  ["POST", "/v1/training/records", "bearer"],
  ["POST", `/v1/a2a/baa/${NPI}`, "key"],
  ["POST", `/v1/a2a/sra/${NPI}`, "key"],
  ["POST", "/v1/a2a/workflows/validate", "key"],
] as const;
const QUERY_ROUTES = [
  ["/v1/policies", "bearer"],
  ["/v1/policies/3", "bearer"],
  ["/v1/risk-assessment", "bearer"],
  ["/v1/training/status", "bearer"],
  ["/v1/incidents", "bearer"],
  ["/v1/practice", "bearer"],
  [`/v1/a2a/policies/${NPI}`, "key"],
  [`/v1/a2a/policies/${NPI}/7`, "key"],
] as const;
const headersFor = (auth: string): Record<string, string> =>
  auth === "bearer" ? { Authorization: `Bearer ${key}` } : { "X-API-Key": key };

describe("administrative endpoints under hostile input", () => {
  it("answer any JSON body with the error body or success, never a 500", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...BODY_ROUTES), fc.anything(), async ([method, path, auth], body) => {
        const res = await t.request(path, {
          method,
          headers: { ...headersFor(auth), "Content-Type": "application/json" },
          body: JSON.stringify(body) ?? "null",
        });
        expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
        if (res.status >= 400)
          expect(Object.keys(res.json.error).sort()).toEqual(expect.arrayContaining(["code", "message", "request_id"]));
      }),
      { numRuns: 120 },
    );
  });

  it("answer any query string without a 500", async () => {
    const param = fc.constantFrom("npi", "format", "version", "status", "generate", "number", "x");
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...QUERY_ROUTES),
        fc.dictionary(param, fc.string({ maxLength: 30 })),
        async ([path, auth], query) => {
          const qs = new URLSearchParams(query).toString();
          const res = await t.request(`${path}${qs ? `?${qs}` : ""}`, { headers: headersFor(auth) });
          expect(res.status, `${path}?${qs}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 120 },
    );
  });
});
