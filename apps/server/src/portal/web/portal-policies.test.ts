import { CREDIT_PRICES } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { invitedAndSignedIn } from "../../test-support/portal-sign-in.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

/*
 * Changes that cost credits, made in the portal (docs/portal.md, "Credits"): the Records page generates and
 * regenerates policies through hipaa.policies by the portal bridge (portal-operations.ts), over real HTTPS and a
 * real store, on each engine. The charge is the API's, with one ledger row and one audit event (transport portal,
 * no key, the person named); a short balance, a viewer and a form without its CSRF token change and charge nothing.
 */

const NPI = "1234567893";
const DOC = CREDIT_PRICES.policy_document;

function policiesSuite(engine: "sqlite" | "postgres") {
  describe(`policies from the Records page (${engine})`, () => {
    let t: TestServer;
    let owner: Awaited<ReturnType<typeof accountWithKey>>;

    beforeAll(async () => {
      t = await startTestServer({ engine, env: { HCS_CONTACT_EMAIL: "sales@hcs.example.org" } });
      owner = await accountWithKey(t.server.deps, { plan: "free", credits: 1000, name: "Lakeside Family" });
      await gradedPractice(t.server.deps, owner.accountId, NPI);
    });
    afterAll(async () => {
      await t?.close();
    });

    const db = () => t.server.deps.store.db;
    const balance = async (accountId: string) =>
      Number(
        (await db().selectFrom("accounts").select("credits").where("id", "=", accountId).executeTakeFirstOrThrow())
          .credits,
      );
    const ledger = (accountId: string) =>
      db().selectFrom("credit_ledger").selectAll().where("account_id", "=", accountId).orderBy("id").execute();
    const policyEvents = (accountId: string) =>
      db()
        .selectFrom("audit_events")
        .selectAll()
        .where("actor_account_id", "=", accountId)
        .where("action", "=", "hipaa.policies")
        .orderBy("id")
        .execute();
    const userIdOf = async (email: string) =>
      (await db().selectFrom("portal_users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;

    it("generates all 24 at the API's price, one ledger row and one audit event naming the person; regenerating one makes a new version", async () => {
      const { browser } = await invitedAndSignedIn(t, owner.accountId, "owner@lakeside.example", "owner");
      const userId = await userIdOf("owner@lakeside.example");
      const page = await browser.get(`/portal/practices/${NPI}/records`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`Generate all 24 policies (${24 * DOC} credits)`);
      expect(page.text).toContain(`Generate policy 3 (${DOC} credits)`);
      expect(page.text).toContain("your account holds 1000 credits");

      const before = await balance(owner.accountId);
      const done = await browser.post(`/portal/practices/${NPI}/policies/generate`, { policy: "all" });
      expect(done.status).toBe(303);
      expect(done.headers.location).toBe(`/portal/practices/${NPI}/records?generated=24#policies`);
      const requestId = done.headers["x-request-id"] as string;
      expect(await balance(owner.accountId)).toBe(before - 24 * DOC);

      const rows = await ledger(owner.accountId);
      const charges = rows.filter((r) => r.delta < 0);
      expect(charges).toHaveLength(1);
      expect(charges[0]).toMatchObject({
        delta: -24 * DOC,
        operation: "policy_document",
        reference: requestId,
        balance_after: before - 24 * DOC,
      });

      const events = await policyEvents(owner.accountId);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        request_id: requestId,
        transport: "portal",
        actor_key_id: null,
        actor_operator: `user:${userId}`,
        resource: `practice:${NPI}`,
        outcome: "success",
        status: 200,
        code: null,
      });

      const after = await browser.get(`/portal/practices/${NPI}/records?generated=24`);
      expect(after.text).toContain("24 policies were generated");
      expect(after.text).toContain("Regenerate all 24 policies");
      expect(after.text).toContain(`Regenerate policy 3 (${DOC} credits)`);
      expect(after.text).toContain("Policies (24 of 24 current)");
      const v1 = await browser.get(`/portal/practices/${NPI}/policies/3?format=markdown`);
      expect(v1.status).toBe(200);
      expect(v1.text).toContain("version 1");

      // Regenerate one: charged one document, as the API charges one; the download is the new version.
      await browser.get(`/portal/practices/${NPI}/records`);
      const again = await browser.post(`/portal/practices/${NPI}/policies/generate`, { policy: "3" });
      expect(again.status).toBe(303);
      expect(again.headers.location).toBe(`/portal/practices/${NPI}/records?generated=1#policies`);
      expect(await balance(owner.accountId)).toBe(before - 25 * DOC);
      const regenerated = await browser.get(`/portal/practices/${NPI}/records?generated=1`);
      expect(regenerated.text).toContain("The policy was generated");
      expect(regenerated.text).toMatch(
        />3<\/td><td>[^<]*<span[^>]*>[^<]*<\/span><\/td><td><span class="pill pill-full">current<\/span><span class="muted small"> v2<\/span>/,
      );
      const v2 = await browser.get(`/portal/practices/${NPI}/policies/3?format=markdown`);
      expect(v2.text).toContain("version 2");
      expect(v2.text).not.toContain("version 1");
      const other = await browser.get(`/portal/practices/${NPI}/policies/4?format=markdown`);
      expect(other.text).toContain("version 1");

      // The API charges the same for one document: its ledger row equals the portal's.
      const api = await t.request(`/v1/a2a/policies/${NPI}?generate=5`, { headers: { "X-API-Key": owner.apiKey } });
      expect(api.status).toBe(200);
      expect(api.headers["x-credits-charged"]).toBe(String(DOC));
      const deltas = (await ledger(owner.accountId)).filter((r) => r.delta < 0).map((r) => r.delta);
      expect(deltas).toEqual([-24 * DOC, -DOC, -DOC]);
      const all = await policyEvents(owner.accountId);
      expect(all.map((e) => [e.transport, e.actor_key_id === null, e.actor_operator])).toEqual([
        ["portal", true, `user:${userId}`],
        ["portal", true, `user:${userId}`],
        ["rest", false, null],
      ]);
    });

    it("a short balance answers a page saying so and charges, generates and writes nothing but the refusal's audit event", async () => {
      const poor = await accountWithKey(t.server.deps, { plan: "professional", credits: 100, name: "Poor Clinic" });
      const npi = "1679576722";
      await gradedPractice(t.server.deps, poor.accountId, npi);
      const { browser } = await invitedAndSignedIn(t, poor.accountId, "manager@poor.example", "manager");
      await browser.get(`/portal/practices/${npi}/records`);
      const refused = await browser.post(`/portal/practices/${npi}/policies/generate`, { policy: "all" });
      expect(refused.status).toBe(402);
      expect(refused.headers["content-type"]).toMatch(/^text\/html/);
      expect(refused.text).toContain(`This costs ${24 * DOC} credits and your account holds 100. Nothing was charged.`);
      // Where to ask for more: the operator's contact address (docs/api.md#plans-and-prices).
      expect(refused.text).toContain("To add credits or change plan, write to sales@hcs.example.org, then try again.");
      expect(await balance(poor.accountId)).toBe(100);
      expect((await ledger(poor.accountId)).filter((r) => r.delta < 0)).toEqual([]);
      const page = await browser.get(`/portal/practices/${npi}/records`);
      expect(page.text).toContain("Policies (0 of 24 current)");
      const events = await policyEvents(poor.accountId);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        transport: "portal",
        actor_key_id: null,
        outcome: "denied",
        status: 402,
        code: "insufficient_credits",
      });
    });

    it("counts a person's changes against their own limit: over it, a 429 page with Retry-After and nothing charged", async () => {
      const { browser } = await invitedAndSignedIn(t, owner.accountId, "busy@lakeside.example", "manager");
      const userId = await userIdOf("busy@lakeside.example");
      // This person has used the minute's 60 Group B calls (this window and the next, should the minute turn).
      const minute = 60_000;
      const start = Math.floor(Date.now() / minute) * minute;
      await db()
        .insertInto("rate_limits")
        .values(
          [start, start + minute].map((s) => ({
            bucket: `b:user:${userId}:${minute}`,
            window_start: s,
            count: 60,
            expires_at: s + minute,
          })),
        )
        .execute();
      const before = await balance(owner.accountId);
      await browser.get(`/portal/practices/${NPI}/records`);
      const limited = await browser.post(`/portal/practices/${NPI}/policies/generate`, { policy: "7" });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
      expect(limited.text).toContain("Too many changes in a short time. Nothing was charged.");
      expect(await balance(owner.accountId)).toBe(before);
      // The account's API key has limits of its own.
      const api = await t.request(`/v1/a2a/policies/${NPI}`, { headers: { "X-API-Key": owner.apiKey } });
      expect(api.status).toBe(200);
      const refusal = (await policyEvents(owner.accountId)).at(-2)!;
      expect(refusal).toMatchObject({ transport: "portal", status: 429, code: "rate_limited", outcome: "denied" });
    });

    it("refuses a viewer (no buttons, 403) and a form without its CSRF token, charging nothing", async () => {
      const { browser: viewer } = await invitedAndSignedIn(t, owner.accountId, "viewer@lakeside.example", "viewer");
      const page = await viewer.get(`/portal/practices/${NPI}/records`);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain("/policies/generate");
      const eventsBefore = (await policyEvents(owner.accountId)).length;
      const before = await balance(owner.accountId);
      const refused = await viewer.post(`/portal/practices/${NPI}/policies/generate`, { policy: "all" });
      expect(refused.status).toBe(403);
      expect(refused.text).toContain("Your role does not allow this");

      const { browser: manager } = await invitedAndSignedIn(t, owner.accountId, "manager@lakeside.example", "manager");
      await manager.get(`/portal/practices/${NPI}/records`);
      const forged = await manager.post(`/portal/practices/${NPI}/policies/generate`, { policy: "all" }, false);
      expect(forged.status).toBe(403);
      expect(forged.text).toContain("did not come from this site");
      const bad = await manager.post(`/portal/practices/${NPI}/policies/generate`, { policy: "25" });
      expect(bad.status).toBe(400);
      expect(bad.text).toContain("Choose a policy (1–24) or all.");

      expect(await balance(owner.accountId)).toBe(before);
      expect(await policyEvents(owner.accountId)).toHaveLength(eventsBefore);
    });
  });
}

policiesSuite("sqlite");
describe.skipIf(!(await shouldRunPostgres()))("on PostgreSQL", () => policiesSuite("postgres"));
