import { GradeRecordSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAccount } from "../../services/accounts.js";
import { expectBalanceSpentOn } from "../../test-support/credit-expectations.js";
import { accountWithKey, DMARC_MISSING, gradedPractice } from "../../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const balance = async (accountId: string) => (await getAccount(t.server.deps, accountId)).credits;

describe("GET /v1/a2a/grade/{npi}", () => {
  it("returns the grade record and charges 25 credits with a ledger row", async () => {
    const a = await accountWithKey(t.server.deps, { credits: 500 });
    await gradedPractice(t.server.deps, a.accountId, "1245319599", [DMARC_MISSING]);
    const res = await t.request("/v1/a2a/grade/1245319599", { headers: { "X-API-Key": a.apiKey } });
    expect(res.status).toBe(200);
    const record = GradeRecordSchema.parse(res.json);
    expect(record).toMatchObject({
      npi: "1245319599",
      practice_name: "Practice 1245319599",
      grade: "A",
      compliance_score: 94,
    });
    expect(Object.keys(record.categories).sort()).toEqual([
      "application_security",
      "email_security",
      "privacy_compliance",
    ]);
    expect(res.headers["x-credits-charged"]).toBe("25");
    expect(res.headers["x-credits-remaining"]).toBe("475");
    expect(await balance(a.accountId)).toBe(475);
    const ledger = await t.server.deps.store.db
      .selectFrom("credit_ledger")
      .selectAll()
      .where("account_id", "=", a.accountId)
      .where("operation", "=", "grade")
      .execute();
    expect(ledger).toEqual([
      expect.objectContaining({ delta: -25, balance_after: 475, reference: res.headers["x-request-id"] }),
    ]);
  });

  it("any valid key may look up any practice's grade (a rating), metered on the caller", async () => {
    const other = await accountWithKey(t.server.deps, { credits: 100 });
    const res = await t.request("/v1/a2a/grade/1245319599", { headers: { "X-API-Key": other.apiKey } });
    expect(res.status).toBe(200);
    expect(await balance(other.accountId)).toBe(75);
  });

  it("400 invalid_npi, 404 npi_not_found and 404 no_grade_yet are not charged", async () => {
    const a = await accountWithKey(t.server.deps, { credits: 100 });
    const { addPractice } = await import("../../services/practices.js");
    await addPractice(t.server.deps, {
      npi: "1003000126",
      name: "Unscanned",
      domain: "unscanned.example",
      accountId: a.accountId,
    });
    const cases: [string, number, string][] = [
      ["1234567890", 400, "invalid_npi"],
      ["12345", 400, "invalid_npi"],
      ["abcdefghij", 400, "invalid_npi"],
      ["1306849450", 404, "npi_not_found"],
      ["1003000126", 404, "no_grade_yet"],
    ];
    for (const [npi, status, code] of cases) {
      const res = await t.request(`/v1/a2a/grade/${npi}`, { headers: { "X-API-Key": a.apiKey } });
      expect([res.status, res.json.error.code], npi).toEqual([status, code]);
      expect(res.headers["x-ratelimit-limit"]).toBe("60");
    }
    expect(await balance(a.accountId)).toBe(100);
  });

  it("402 with required and balance when short, and nothing charged", async () => {
    const a = await accountWithKey(t.server.deps, { credits: 10 });
    const res = await t.request("/v1/a2a/grade/1245319599", { headers: { "X-API-Key": a.apiKey } });
    expect(res.status).toBe(402);
    expect(res.json.error).toMatchObject({ code: "insufficient_credits", details: { required: 25, balance: 10 } });
    expect(await balance(a.accountId)).toBe(10);
  });
});

describe("100 concurrent lookups on 500 credits: exactly 20 succeed, 80 get 402, ledger and balance agree", () => {
  it("on the one settlement path", async () => {
    await hundredLookupsOn500Credits(t);
  });
});

/** A practice of its own for the concurrent lookups (each server's store gets it once). */
const CONCURRENT_NPI = "1234567893";

/** The metered lookup's guarantee under concurrency, on one server. */
async function hundredLookupsOn500Credits(t: TestServer): Promise<void> {
  const a = await accountWithKey(t.server.deps, { credits: 500, tier: "bulk" });
  await gradedPractice(t.server.deps, a.accountId, CONCURRENT_NPI);
  const responses = await Promise.all(
    Array.from({ length: 100 }, () =>
      t.request(`/v1/a2a/grade/${CONCURRENT_NPI}`, { headers: { "X-API-Key": a.apiKey } }),
    ),
  );
  const statuses = responses.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(20);
  expect(statuses.filter((s) => s === 402)).toHaveLength(80);
  await expectBalanceSpentOn(t.server.deps.store.db, a.accountId, "grade", 20);
  // Exactly one audit event per request, whether it was charged or refused.
  const events = await t.server.deps.store.db
    .selectFrom("audit_events")
    .select(["status", "request_id"])
    .where("actor_key_id", "=", a.keyId)
    .execute();
  expect(events).toHaveLength(100);
  expect(new Set(events.map((e) => e.request_id)).size).toBe(100);
  expect(events.filter((e) => e.status === 200)).toHaveLength(20);
  expect(events.filter((e) => e.status === 402)).toHaveLength(80);
}
