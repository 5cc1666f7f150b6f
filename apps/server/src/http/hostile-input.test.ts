import { ErrorBodySchema, withNpiCheckDigit } from "@hcs/protocol";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

let t: TestServer;
let key: string;
beforeAll(async () => {
  t = await startTestServer();
  const a = await accountWithKey(t.server.deps, { plan: "enterprise", tier: "bulk", credits: 1_000_000 });
  key = a.apiKey;
  await gradedPractice(t.server.deps, a.accountId, "1234567893");
});
afterAll(async () => {
  await t.close();
});

const SEGMENTS = [
  "v1",
  "a2a",
  "grade",
  "keys",
  "jobs",
  "practice",
  ".well-known",
  "agent-card.json",
  "api",
  "reputation",
  "%2e%2e",
  "..",
  "%00",
  "1234567893",
  "ü",
  "%ZZ",
  "*",
];
const pathArb = fc
  .array(fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ maxLength: 12 }).map(encodeURIComponent)), {
    minLength: 0,
    maxLength: 5,
  })
  .map((parts) => `/${parts.join("/")}`);
const npiArb = fc.oneof(
  fc.string({ maxLength: 14 }),
  fc.stringMatching(/^[0-9]{10}$/),
  fc.stringMatching(/^[0-9]{9}$/).map((n) => withNpiCheckDigit(n)),
  fc.constantFrom("1234567893", "0000000000", "-123456789", "1234567893 ", "１２３４５６７８９３"),
);
const headerArb = fc.dictionary(
  fc.constantFrom(
    "X-API-Key",
    "Authorization",
    "Content-Type",
    "Accept",
    "X-Forwarded-Proto",
    "If-None-Match",
    "X-Request-Id",
  ),
  fc.oneof(
    fc.string({ maxLength: 40 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
    fc.constantFrom("application/json", "text/plain", "Bearer x", ""),
  ),
);
const bodyArb = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
  fc.record({ email: fc.string(), organization: fc.string() }).map((o) => JSON.stringify(o)),
  fc.record({ npi: npiArb, scan_type: fc.string(), callback_url: fc.webUrl() }).map((o) => JSON.stringify(o)),
);

function checkResponse(res: { status: number; json: unknown; text: string }, context: string) {
  expect(res.status, context).not.toBe(500);
  expect(res.status, context).toBeLessThan(500);
  if (res.status >= 400) {
    const parsed = ErrorBodySchema.safeParse(res.json);
    expect(parsed.success, `${context} → ${res.status} ${res.text.slice(0, 200)}`).toBe(true);
  }
}

describe("hostile input never yields a 500, and errors always have the error shape", () => {
  it("random paths, methods, headers and bodies", async () => {
    await fc.assert(
      fc.asyncProperty(
        pathArb,
        fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"),
        headerArb,
        bodyArb,
        fc.boolean(),
        async (path, method, headers, body, withKey) => {
          const h: Record<string, string> = { ...headers };
          if (withKey) h["X-API-Key"] = key;
          const res = await t.request(path, {
            method,
            headers: h,
            ...(body !== undefined && method !== "GET"
              ? { body: typeof body === "string" ? body : JSON.stringify(body) }
              : {}),
          });
          checkResponse(res, `${method} ${path} ${JSON.stringify(h)}`);
        },
      ),
      { numRuns: 250 },
    );
  });

  it("random NPIs on the grade endpoint", async () => {
    await fc.assert(
      fc.asyncProperty(npiArb, async (npi) => {
        const res = await t.request(`/v1/a2a/grade/${encodeURIComponent(npi)}`, { headers: { "X-API-Key": key } });
        checkResponse(res, npi);
        expect([200, 400, 404]).toContain(res.status);
      }),
      { numRuns: 150 },
    );
  });

  it("random bodies on the free-key endpoint", async () => {
    await fc.assert(
      fc.asyncProperty(
        bodyArb,
        fc.constantFrom("application/json", "text/plain", "application/json; charset=utf-8"),
        async (body, type) => {
          const res = await t.request("/v1/a2a/keys", {
            method: "POST",
            headers: { "Content-Type": type },
            body: body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body),
          });
          checkResponse(res, `${type} ${String(body).slice(0, 80)}`);
        },
      ),
      { numRuns: 100 },
    );
  });
});
