import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPractice } from "../../services/practices.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";
import { PracticeStatusSchema } from "./practice.declaration.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe("GET /v1/practice (Group A)", () => {
  it("returns the account's only practice with its grade and open findings", async () => {
    const a = await accountWithKey(t.server.deps, { plan: "professional" });
    await gradedPractice(t.server.deps, a.accountId, "1234567893", [
      {
        id: "web.hsts_missing:x",
        check_id: "web.hsts_missing",
        source: "external",
        category: "application_security",
        severity: "medium",
        title: "No HSTS",
        detail: "d",
        evidence: {},
        remediation: "r",
        controls: ["164.312(e)(1)"],
      },
    ]);
    const res = await t.request("/v1/practice", { headers: { Authorization: `Bearer ${a.apiKey}` } });
    expect(res.status).toBe(200);
    const body = PracticeStatusSchema.parse(res.json);
    expect(body).toMatchObject({
      npi: "1234567893",
      domain: "p1234567893.example",
      compliance: { open_findings: { medium: 1, high: 0 } },
    });
    expect(body.compliance.grade?.grade).toBe("A");
    // Group A does not meter credits.
    expect(res.headers["x-credits-charged"]).toBeUndefined();
  });

  it("needs ?npi= when the account has several practices, and refuses other accounts' practices", async () => {
    const a = await accountWithKey(t.server.deps, { plan: "enterprise" });
    await addPractice(t.server.deps, { npi: "1245319599", name: "One", domain: "one.example", accountId: a.accountId });
    await addPractice(t.server.deps, { npi: "1003000126", name: "Two", domain: "two.example", accountId: a.accountId });
    const ambiguous = await t.request("/v1/practice", { headers: { Authorization: `Bearer ${a.apiKey}` } });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.json.error).toMatchObject({
      code: "invalid_query",
      details: { npis: ["1245319599", "1003000126"] },
    });
    const chosen = await t.request("/v1/practice?npi=1003000126", { headers: { Authorization: `Bearer ${a.apiKey}` } });
    expect(chosen.status).toBe(200);
    expect(chosen.json.compliance.grade).toBeNull();
    const foreign = await t.request("/v1/practice?npi=1234567893", {
      headers: { Authorization: `Bearer ${a.apiKey}` },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json.error.code).toBe("forbidden");
    const bad = await t.request("/v1/practice?npi=123", { headers: { Authorization: `Bearer ${a.apiKey}` } });
    expect(bad.json.error.code).toBe("invalid_npi");
  });
});
