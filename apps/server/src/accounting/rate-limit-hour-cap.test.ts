import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey } from "../test-support/fixtures.js";
import { shouldRunPostgres } from "../test-support/postgres.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

const runPg = await shouldRunPostgres();

// The hour starts at 12:00; each minute's requests are sent 10 s into it.
const HOUR_START = Date.parse("2026-11-22T12:00:00.000Z");
const minute = (m: number) => new Date(HOUR_START + m * 60_000 + 10_000);
const HOUR_RESET = String((HOUR_START + 3_600_000) / 1000);

for (const engine of ["sqlite", "postgres"] as const) {
  describe.skipIf(engine === "postgres" && !runPg)(`Group A at its 1000/hour cap (${engine})`, () => {
    let t: TestServer;
    let now = minute(0);
    let bearer: Record<string, string>;

    beforeAll(async () => {
      t = await startTestServer({ engine, now: () => now });
      const a = await accountWithKey(t.server.deps, { plan: "professional" });
      bearer = { Authorization: `Bearer ${a.apiKey}` };
    });
    afterAll(async () => {
      await t?.close();
    });

    /** `n` Group A requests, 25 at a time. */
    async function send(n: number) {
      const answers = [];
      for (let sent = 0; sent < n; sent += 25)
        answers.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(25, n - sent) }, () => t.request("/v1/practice", { headers: bearer })),
          )),
        );
      return answers;
    }

    it("every 429 names the same limit in its body as in X-RateLimit-Limit, and Retry-After waits for that window", async () => {
      // 100 a minute for ten minutes: the hour's 1000, none refused.
      for (let m = 0; m < 10; m++) {
        now = minute(m);
        const answers = await send(100);
        expect(answers.map((r) => r.status).filter((s) => s === 429)).toEqual([]);
      }
      // The eleventh minute: past the hour's cap at once, and past the minute's too once 100 more have been sent.
      now = minute(10);
      const refused = await send(150);
      expect(refused.every((r) => r.status === 429)).toBe(true);
      const retryAfter = String((HOUR_START + 3_600_000 - now.getTime()) / 1000);
      for (const r of refused) {
        expect(r.json.error.code).toBe("rate_limited");
        expect(r.headers["x-ratelimit-limit"]).toBe("1000");
        expect(r.json.error.details).toEqual({ limit: 1000, retry_after_seconds: Number(retryAfter) });
        expect(r.headers["x-ratelimit-remaining"]).toBe("0");
        expect(r.headers["x-ratelimit-reset"]).toBe(HOUR_RESET);
        expect(r.headers["retry-after"]).toBe(retryAfter);
      }
    }, 120_000);
  });
}
