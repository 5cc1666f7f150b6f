import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IncidentViewSchema } from "../../administrative/incident-schema.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

// Fixed clock: 2024-03-20, a leap year.
const NOW = new Date("2024-03-20T15:00:00Z");
let t: TestServer;
let key: string;
const NPI = "1234567893";
beforeAll(async () => {
  t = await startTestServer({ now: () => NOW });
  const a = await accountWithKey(t.server.deps, { plan: "professional" });
  key = a.apiKey;
  await gradedPractice(t.server.deps, a.accountId, NPI);
});
afterAll(async () => {
  await t.close();
});

const auth = () => ({ Authorization: `Bearer ${key}` });
const lostLaptop = {
  title: "Unencrypted laptop stolen from a car",
  category: "theft",
  discovered_on: "2024-01-10",
  occurred_on: "2024-01-09",
  phi_involved: true,
  individuals_affected: 620,
  residents_by_state: { OR: 540, WA: 80 },
  risk_assessment: {
    data_types: ["demographic", "diagnosis", "insurance"],
    recipient: "unknown",
    acquired_or_viewed: "unknown",
    mitigation: "none",
  },
};

describe("/v1/incidents (Group A)", () => {
  it("records a breach with its four factors and the notification clock, and its overdue notices become findings", async () => {
    const res = await t.request("/v1/incidents", { method: "POST", headers: auth(), body: lostLaptop });
    expect(res.status).toBe(201);
    const inc = IncidentViewSchema.parse(res.json);
    expect(inc.determination.determination).toBe("breach");
    expect(inc.determination.factors?.map((f) => f.risk)).toEqual(["moderate", "high", "high", "high"]);
    const clock = Object.fromEntries(inc.notifications.map((n) => [n.recipient, n]));
    // 2024-01-10 + 60 days (February has 29 days in 2024) = 2024-03-10: ten days overdue on 2024-03-20.
    expect(clock.individuals).toMatchObject({ due_on: "2024-03-10", status: "overdue", days_remaining: -10 });
    expect(clock.hhs).toMatchObject({ due_on: "2024-03-10", controls: ["164.408(b)"] });
    expect(clock.media).toMatchObject({ required: true, due_on: "2024-03-10" });
    expect(inc.overdue).toBe(true);

    const findings = await t.server.deps.store.db
      .selectFrom("findings")
      .select(["check_id", "controls", "severity"])
      .where("npi", "=", NPI)
      .where("source", "=", "administrative")
      .where("resolved_at", "is", null)
      .execute();
    const overdue = findings.filter((f) => f.check_id === "administrative.breach_notification_overdue");
    expect(overdue).toHaveLength(3);
    expect(overdue.flatMap((f) => JSON.parse(f.controls))).toContain("164.404(b)");

    // Notices sent (late) stop the clock and resolve the findings.
    const patched = await t.request(`/v1/incidents/${inc.id}`, {
      method: "PATCH",
      headers: auth(),
      body: {
        notifications_sent: { individuals_on: "2024-03-15", hhs_on: "2024-03-15", media_on: "2024-03-16" },
        status: "contained",
      },
    });
    expect(patched.status).toBe(200);
    const after = IncidentViewSchema.parse(patched.json);
    expect(after.notifications.map((n) => n.status)).toEqual(["sent_late", "sent_late", "sent_late"]);
    expect(after.overdue).toBe(false);
    const stillOpen = await t.server.deps.store.db
      .selectFrom("findings")
      .select("check_id")
      .where("npi", "=", NPI)
      .where("check_id", "=", "administrative.breach_notification_overdue")
      .where("resolved_at", "is", null)
      .execute();
    expect(stillOpen).toHaveLength(0);

    const one = await t.request(`/v1/incidents/${inc.id}`, { headers: auth() });
    expect(one.json.status).toBe("contained");
    const list = await t.request("/v1/incidents?status=contained", { headers: auth() });
    expect(list.json.incidents.map((i: { id: string }) => i.id)).toEqual([inc.id]);
  });

  it("a low-probability assessment is an incident with no clock; a small breach goes in the annual log", async () => {
    const low = await t.request("/v1/incidents", {
      method: "POST",
      headers: auth(),
      body: {
        title: "Fax sent to another clinic",
        category: "unauthorized_access_disclosure",
        discovered_on: "2024-03-01",
        phi_involved: true,
        individuals_affected: 1,
        risk_assessment: {
          data_types: ["demographic"],
          recipient: "covered_entity_or_business_associate",
          acquired_or_viewed: "not_acquired",
          mitigation: "returned_or_destroyed_with_assurance",
        },
      },
    });
    expect(low.json.determination.determination).toBe("incident");
    expect(low.json.notifications).toEqual([]);
    const small = await t.request("/v1/incidents", {
      method: "POST",
      headers: auth(),
      body: {
        title: "Misdirected email",
        category: "unauthorized_access_disclosure",
        discovered_on: "2023-11-02",
        phi_involved: true,
        individuals_affected: 12,
      },
    });
    expect(small.json.determination.reason).toContain("presumed");
    const hhs = small.json.notifications.find((n: { recipient: string }) => n.recipient === "hhs");
    expect(hhs).toMatchObject({ due_on: "2024-02-29", status: "overdue" });
  });

  it("refuses free plans, other accounts, and bad input with the error body", async () => {
    const free = await accountWithKey(t.server.deps, { plan: "free" });
    const refused = await t.request("/v1/incidents", { headers: { Authorization: `Bearer ${free.apiKey}` } });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("plan_required");

    const other = await accountWithKey(t.server.deps, { plan: "enterprise" });
    await gradedPractice(t.server.deps, other.accountId, "1245319599");
    const mine = await t.request("/v1/incidents", { headers: auth() });
    const someId = mine.json.incidents[0].id;
    const foreign = await t.request(`/v1/incidents/${someId}`, {
      headers: { Authorization: `Bearer ${other.apiKey}` },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe("not_found");
    const foreignPatch = await t.request(`/v1/incidents/${someId}`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${other.apiKey}` },
      body: { status: "closed" },
    });
    expect(foreignPatch.status).toBe(404);

    const future = await t.request("/v1/incidents", {
      method: "POST",
      headers: auth(),
      body: { ...lostLaptop, discovered_on: "2024-04-01", occurred_on: undefined },
    });
    expect(future.status).toBe(400);
    expect(future.json.error.code).toBe("invalid_body");
    const notADay = await t.request("/v1/incidents", {
      method: "POST",
      headers: auth(),
      body: { ...lostLaptop, discovered_on: "2023-02-29" },
    });
    expect(notADay.json.error.code).toBe("invalid_body");
    const tooMany = await t.request("/v1/incidents", {
      method: "POST",
      headers: auth(),
      body: { ...lostLaptop, residents_by_state: { OR: 9999 } },
    });
    expect(tooMany.json.error.code).toBe("invalid_body");
    const badPatch = await t.request(`/v1/incidents/${someId}`, {
      method: "PATCH",
      headers: auth(),
      body: { occurred_on: "2030-01-01" },
    });
    expect(badPatch.status).toBe(400);
  });

  it("answers hostile bodies with a 4xx error body, never a 500", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything(),
          fc.record(
            { ...Object.fromEntries(Object.keys(lostLaptop).map((k) => [k, fc.anything()])) },
            { requiredKeys: [] },
          ),
          fc.record({
            title: fc.string(),
            discovered_on: fc.string(),
            individuals_affected: fc.integer(),
            phi_involved: fc.boolean(),
            category: fc.constantFrom("theft", "loss"),
          }),
        ),
        fc.constantFrom("POST /v1/incidents", "PATCH /v1/incidents/inc_0000000000000000", "PATCH /v1/incidents/x"),
        async (body, route) => {
          const [method, path] = route.split(" ") as [string, string];
          const res = await t.request(path, {
            method,
            headers: { ...auth(), "Content-Type": "application/json" },
            body: JSON.stringify(body) ?? "null",
          });
          expect(res.status, JSON.stringify(res.json)).toBeLessThan(500);
          if (res.status >= 400) expect(typeof res.json.error.code).toBe("string");
        },
      ),
      { numRuns: 60 },
    );
  });
});
