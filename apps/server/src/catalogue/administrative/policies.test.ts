import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeReputation } from "../../services/reputation.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

let t: TestServer;
let pro: Awaited<ReturnType<typeof accountWithKey>>;
const NPI = "1234567893";
beforeAll(async () => {
  t = await startTestServer({ now: () => new Date("2024-06-01T10:00:00Z") });
  pro = await accountWithKey(t.server.deps, { plan: "professional", credits: 1000 });
  await gradedPractice(t.server.deps, pro.accountId, NPI);
});
afterAll(async () => {
  await t.close();
});
const bearer = () => ({ Authorization: `Bearer ${pro.apiKey}` });

describe("policies (Group A and hipaa.policies)", () => {
  it("generates the 24 policies from the profile, keeps versions, downloads Markdown and HTML, and counts documents", async () => {
    // The reputation snapshot (served cached for 10 s) counts documents from the store.
    const documents = async () =>
      (await computeReputation(t.server.deps, { uptimeSeconds: () => 0 })).documents_generated;
    const before = await documents();
    const empty = await t.request("/v1/policies", { headers: bearer() });
    expect(empty.status).toBe(200);
    expect(empty.json.policies.every((p: { status: string }) => p.status === "not_generated")).toBe(true);

    const gen = await t.request("/v1/policies/generate", {
      method: "POST",
      headers: bearer(),
      body: {
        profile: { security_officer: { name: "Dana Ortiz", title: "Practice Administrator" }, workforce_size: 9 },
      },
    });
    expect(gen.status).toBe(201);
    expect(gen.json.generated).toHaveLength(24);
    expect(gen.json.current).toBe(24);
    const p21 = gen.json.policies[20];
    expect(p21).toMatchObject({
      number: 21,
      title: "Breach Notification",
      version: 1,
      status: "current",
      review_due_on: "2025-06-01",
    });
    expect(p21.citations).toContain("164.404(b)");

    const again = await t.request("/v1/policies/generate", {
      method: "POST",
      headers: bearer(),
      body: { policies: [4] },
    });
    expect(again.json.generated).toEqual([4]);
    expect(again.json.policies[3]).toMatchObject({ version: 2, versions: 2 });

    const md = await t.request(again.json.policies[3].download.markdown, { headers: bearer() });
    expect(md.status).toBe(200);
    expect(md.headers["content-type"]).toContain("text/markdown");
    expect(md.text).toContain("Dana Ortiz (Practice Administrator), Security Official");
    expect(md.text).toContain("version 2");
    const v1 = await t.request("/v1/policies/4?format=html&version=1", { headers: bearer() });
    expect(v1.headers["content-type"]).toContain("text/html");
    expect(v1.text).toContain("<h1>Policy 4: Assigned Security Responsibility</h1>");
    expect(v1.text).toContain("version 1");

    const after = await documents();
    expect(after - before).toBe(25);
  });

  it("serves downloads never to be sniffed, and the HTML page under a CSP that allows its own stylesheet only", async () => {
    const key = { "X-API-Key": pro.apiKey };
    for (const [path, headers] of [
      ["/v1/policies/4", bearer()],
      [`/v1/a2a/policies/${NPI}/4`, key],
    ] as const) {
      const html = await t.request(`${path}?format=html`, { headers });
      expect(html.status).toBe(200);
      expect(html.headers["x-content-type-options"]).toBe("nosniff");
      const css = /<style>([\s\S]*?)<\/style>/.exec(html.text)![1]!;
      expect(html.headers["content-security-policy"]).toBe(
        `default-src 'none'; style-src 'sha256-${createHash("sha256").update(css).digest("base64")}'; ` +
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      const md = await t.request(`${path}?format=markdown`, { headers });
      expect(md.status).toBe(200);
      expect(md.headers["x-content-type-options"]).toBe("nosniff");
    }
  });

  it("hipaa.policies lists for free and charges 25 credits per generated document", async () => {
    const list = await t.request(`/v1/a2a/policies/${NPI}`, { headers: { "X-API-Key": pro.apiKey } });
    expect(list.status).toBe(200);
    expect(list.headers["x-credits-charged"]).toBeUndefined();
    expect(list.json.policies[0].download.markdown).toBe(`/v1/a2a/policies/${NPI}/1?format=markdown`);
    const gen = await t.request(`/v1/a2a/policies/${NPI}?generate=1,2`, { headers: { "X-API-Key": pro.apiKey } });
    expect(gen.status).toBe(200);
    expect(gen.json.generated).toEqual([1, 2]);
    expect(gen.headers["x-credits-charged"]).toBe("50");
    const rpc = await t.request("/api/a2a", {
      method: "POST",
      headers: { "X-API-Key": pro.apiKey },
      body: { jsonrpc: "2.0", id: 1, method: "hipaa.policies", params: { npi: NPI, generate: [24] } },
    });
    expect(rpc.json.result.generated).toEqual([24]);
    // A balance that cannot pay for the documents is refused before any is written.
    await t.server.deps.store.db.updateTable("accounts").set({ credits: 40 }).where("id", "=", pro.accountId).execute();
    const short = await t.request(`/v1/a2a/policies/${NPI}?generate=5,6`, { headers: { "X-API-Key": pro.apiKey } });
    expect(short.status).toBe(402);
    expect(short.json.error.details).toMatchObject({ required: 50, balance: 40 });
    const after = await t.request(`/v1/a2a/policies/${NPI}`, { headers: { "X-API-Key": pro.apiKey } });
    expect(after.json.policies[4].versions).toBe(1);
    const doc = await t.request(`/v1/a2a/policies/${NPI}/24?format=markdown`, { headers: { "X-API-Key": pro.apiKey } });
    expect(doc.text).toContain("# Policy 24: Documentation and Retention");
  });

  it("refuses free plans, foreign practices, and bad input", async () => {
    const free = await accountWithKey(t.server.deps, { plan: "free" });
    const refused = await t.request("/v1/policies", { headers: { Authorization: `Bearer ${free.apiKey}` } });
    expect(refused.json.error.code).toBe("plan_required");
    const foreign = await t.request(`/v1/a2a/policies/${NPI}`, { headers: { "X-API-Key": free.apiKey } });
    expect(foreign.status).toBe(403);
    expect(foreign.json.error.code).toBe("forbidden");
    const bad = await t.request("/v1/policies/generate", {
      method: "POST",
      headers: bearer(),
      body: { policies: [25] },
    });
    expect(bad.json.error.code).toBe("invalid_body");
    const nope = await t.request("/v1/policies/99", { headers: bearer() });
    expect(nope.status).toBe(400);
    const badFmt = await t.request("/v1/policies/3?format=pdf", { headers: bearer() });
    expect(badFmt.json.error.code).toBe("invalid_query");
  });
});
