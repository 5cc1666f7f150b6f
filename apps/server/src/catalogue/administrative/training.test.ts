import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TrainingStatusSchema } from "../../administrative/training-schemas.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

let t: TestServer;
let key: string;
const NPI = "1234567893";
beforeAll(async () => {
  t = await startTestServer({ now: () => new Date("2024-03-01T12:00:00Z") });
  const a = await accountWithKey(t.server.deps, { plan: "professional" });
  key = a.apiKey;
  await gradedPractice(t.server.deps, a.accountId, NPI);
});
afterAll(async () => {
  await t.close();
});
const bearer = (extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${key}`, ...extra });

describe("training (GET /v1/training/status, POST /v1/training/records)", () => {
  it("loads a roster as JSON, then completions as CSV, and reports who is due and overdue", async () => {
    const json = await t.request("/v1/training/records", {
      method: "POST",
      headers: bearer(),
      body: {
        members: [
          { member_id: "e1", name: "Dana Ortiz", role: "office manager", hired_on: "2019-04-01" },
          { member_id: "e2", name: "Sam Lee", role: "medical assistant", hired_on: "2024-02-20" },
        ],
        completions: [{ member_id: "e1", completed_on: "2023-02-01" }],
      },
    });
    expect(json.status).toBe(201);
    expect(TrainingStatusSchema.parse(json.json)).toMatchObject({ active_members: 2, overdue: 1, due: 1, current: 0 });

    const csv =
      'member_id,name,role,hired_on,course,completed_on\ne1,"Ortiz, Dana",office manager,2019-04-01,hipaa_security_awareness,2024-02-15\ne3,Kim Park,billing,2023-06-01,,2023-06-20\n';
    const up = await t.request("/v1/training/records", {
      method: "POST",
      headers: bearer({ "Content-Type": "text/csv" }),
      body: csv,
    });
    expect(up.status).toBe(201);
    const status = TrainingStatusSchema.parse((await t.request("/v1/training/status", { headers: bearer() })).json);
    expect(status).toMatchObject({ as_of: "2024-03-01", active_members: 3, current: 2, due: 1, overdue: 0 });
    expect(status.completion_rate).toBeCloseTo(0.667, 3);
    expect(status.members.find((m) => m.member_id === "e1")).toMatchObject({
      name: "Ortiz, Dana",
      last_completed_on: "2024-02-15",
      due_on: "2025-02-15",
    });
    // Replaying the same CSV adds nothing.
    await t.request("/v1/training/records", {
      method: "POST",
      headers: bearer({ "Content-Type": "text/csv" }),
      body: csv,
    });
    const rows = await t.server.deps.store.db
      .selectFrom("training_completions")
      .select("id")
      .where("npi", "=", NPI)
      .execute();
    expect(rows).toHaveLength(3);
  });

  it("refuses bad records with the line, free plans, and hostile bodies without a 500", async () => {
    const bad = await t.request("/v1/training/records", {
      method: "POST",
      headers: bearer({ "Content-Type": "text/csv" }),
      body: "member_id,name,role,hired_on\ne9,X,Y,2023-02-30\n",
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: "invalid_body", details: { line: 2 } });
    const stranger = await t.request("/v1/training/records", {
      method: "POST",
      headers: bearer(),
      body: { completions: [{ member_id: "nobody", completed_on: "2024-01-01" }] },
    });
    expect(stranger.json.error.code).toBe("invalid_body");
    const free = await accountWithKey(t.server.deps, { plan: "free" });
    const refused = await t.request("/v1/training/status", { headers: { Authorization: `Bearer ${free.apiKey}` } });
    expect(refused.json.error.code).toBe("plan_required");
    const xml = await t.request("/v1/training/records", {
      method: "POST",
      headers: bearer({ "Content-Type": "application/xml" }),
      body: "<a/>",
    });
    expect(xml.status).toBe(415);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string().map((s) => ({ type: "text/csv", body: `member_id,name,role,hired_on,completed_on\n${s}` })),
          fc.anything().map((v) => ({ type: "application/json", body: JSON.stringify(v) ?? "null" })),
          fc
            .record({
              members: fc.array(
                fc.record({ member_id: fc.string(), name: fc.string(), role: fc.string(), hired_on: fc.string() }),
              ),
            })
            .map((v) => ({ type: "application/json", body: JSON.stringify(v) })),
        ),
        async ({ type, body }) => {
          const res = await t.request("/v1/training/records", {
            method: "POST",
            headers: bearer({ "Content-Type": type }),
            body,
          });
          expect(res.status, res.text).toBeLessThan(500);
          if (res.status >= 400) expect(res.json.error.code).toMatch(/^invalid_/);
        },
      ),
      { numRuns: 50 },
    );
  });
});
