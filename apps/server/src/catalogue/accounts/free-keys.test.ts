import { IssuedKeySchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ now: () => new Date("2026-11-22T12:00:05.000Z") });
});
afterAll(async () => {
  await t.close();
});

describe("POST /v1/a2a/keys (free tier)", () => {
  it("issues a working key with 500 credits, shown once and stored hashed", async () => {
    const res = await t.request("/v1/a2a/keys", {
      method: "POST",
      body: { email: "it@sunrise.example", organization: "Sunrise Family Practice" },
    });
    expect(res.status).toBe(201);
    const key = IssuedKeySchema.parse(res.json);
    expect(key).toMatchObject({ plan: "free", tier: "standard", credits: 500 });
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-ratelimit-limit"]).toBe("60");
    const rows = JSON.stringify(await t.server.deps.store.db.selectFrom("api_keys").selectAll().execute());
    expect(rows).not.toContain(key.api_key);
    // The key works on Group B.
    const lookup = await t.request("/v1/a2a/grade/1234567893", { headers: { "X-API-Key": key.api_key } });
    expect(lookup.json.error.code).toBe("npi_not_found");
    const ledger = await t.server.deps.store.db
      .selectFrom("credit_ledger")
      .selectAll()
      .where("account_id", "=", key.account_id)
      .execute();
    expect(ledger).toEqual([expect.objectContaining({ delta: 500, operation: "opening_balance" })]);
  });

  it("is limited per client IP (the sixth key in an hour gets 429)", async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await t.request("/v1/a2a/keys", { method: "POST", body: { email: `x${i}@a.example`, organization: "A" } }))
          .status,
      );
    }
    // One key was already issued from this address by the previous test.
    expect(statuses).toEqual([201, 201, 201, 201, 429]);
    const res = await t.request("/v1/a2a/keys", { method: "POST", body: { email: "y@a.example", organization: "A" } });
    expect(res.status).toBe(429);
    expect(res.json.error.code).toBe("rate_limited");
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });
});
