import { randomUUID } from "node:crypto";
import { type AccountOverview, AccountOverviewSchema, CREDIT_PRICES, IssuedKeySchema, PLAN_TABLE } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestResponse } from "../../lab/https-client.js";
import { topUpCredits } from "../../services/credit-top-ups.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

const CONTACT = "sales@hcs.example.org";
const OWN = "1234567893";
const OTHERS = "1245319599";
const UNKNOWN = "1679576722";

/** What the account's ledger says it used, computed here from the rows alone (as an auditor would). */
async function usageFromLedger(t: TestServer, accountId: string) {
  const rows = await t.server.deps.store.db
    .selectFrom("credit_ledger")
    .selectAll()
    .where("account_id", "=", accountId)
    .orderBy("id")
    .execute();
  const chargedAs = new Map<string, string>();
  const lines = new Map<string, { operation: string; refs: Set<string>; charged: number; refunded: number }>();
  const line = (operation: string) => {
    const l = lines.get(operation) ?? { operation, refs: new Set<string>(), charged: 0, refunded: 0 };
    lines.set(operation, l);
    return l;
  };
  for (const r of rows) {
    const delta = Number(r.delta);
    if (delta < 0) {
      chargedAs.set(r.reference!, r.operation);
      line(r.operation).refs.add(r.reference!);
      line(r.operation).charged -= delta;
    } else if (r.operation === "refund" || r.operation === "reservation_refund") {
      line(chargedAs.get(r.reference!)!).refunded += delta;
    }
  }
  const order = Object.keys(CREDIT_PRICES);
  return {
    rows,
    usage: [...lines.values()]
      .sort((a, b) => order.indexOf(a.operation) - order.indexOf(b.operation))
      .map((l) => ({
        operation: l.operation,
        calls: l.refs.size,
        charged: l.charged,
        refunded: l.refunded,
        credits: l.charged - l.refunded,
      })),
  };
}

function accountSuite(engine: "sqlite" | "postgres") {
  describe(`GET /v1/a2a/account on ${engine}`, () => {
    let t: TestServer;
    const clock = new Date("2026-11-22T12:00:05.000Z");
    beforeAll(async () => {
      t = await startTestServer({ engine, now: () => clock, env: { HCS_CONTACT_EMAIL: CONTACT } });
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    const rest = (key: string, path: string, o: { method?: "GET" | "POST"; body?: unknown } = {}) =>
      t.request(path, {
        method: o.method ?? "GET",
        headers: { "X-API-Key": key },
        ...(o.body === undefined ? {} : { body: o.body as Record<string, unknown> }),
      });
    const rpc = (key: string, method: string, params: unknown) =>
      t.request("/api/a2a", {
        method: "POST",
        headers: { "X-API-Key": key },
        body: { jsonrpc: "2.0", id: 1, method, params },
      });
    const mcp = (key: string, name: string, args: unknown) =>
      t.request("/mcp", {
        method: "POST",
        headers: {
          "X-API-Key": key,
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": "2025-06-18",
        },
        body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
      });
    const a2a = (key: string, skill: string, params: unknown) =>
      t.request("/api/a2a", {
        method: "POST",
        headers: { "X-API-Key": key, "A2A-Version": "1.0" },
        body: {
          jsonrpc: "2.0",
          id: 1,
          method: "SendMessage",
          params: {
            message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ data: { skill, params } }] },
            configuration: { returnImmediately: true },
          },
        },
      });
    const charged = (res: TestResponse) => Number(res.headers["x-credits-charged"] ?? 0);
    const account = async (key: string): Promise<AccountOverview> => {
      const res = await rest(key, "/v1/a2a/account");
      expect(res.status, res.text).toBe(200);
      expect(res.headers["cache-control"]).toBe("private, no-store");
      // Free: nothing charged, and the answer says so.
      expect(res.headers["x-credits-charged"]).toBeUndefined();
      return AccountOverviewSchema.parse(res.json);
    };

    it("a fresh free key's account: 500 credits, the free plan's terms, no usage yet, the contact address", async () => {
      const issued = await t.request("/v1/a2a/keys", {
        method: "POST",
        body: { email: "it@lakeside.example", organization: "Lakeside Family Medicine" },
      });
      const key = IssuedKeySchema.parse(issued.json);
      const a = await account(key.api_key);
      expect(a).toMatchObject({
        account_id: key.account_id,
        name: "Lakeside Family Medicine",
        plan: "free",
        tier: "standard",
        balance: 500,
        plan_terms: { plan: "free", ...PLAN_TABLE.plans.free },
        contact_email: CONTACT,
        past_periods: [],
      });
      expect(a.rate_limits).toMatchObject({
        counted_per: "key",
        group_b: { windows: [{ window_seconds: 60, limit: 60, used: 0, remaining: 60 }] },
        group_a: null,
      });
      expect(a.current_period).toMatchObject({
        start: clock.toISOString(),
        end: "2027-11-22T12:00:05.000Z",
        state: "open",
        plan: "free",
        usage: [],
        usage_credits: 0,
        annual_minimum: 0,
        minimum_shortfall: 0,
        credits_added: 500,
        opening_balance: 0,
        closing_balance: 500,
      });
    });

    it("after a mix of paid calls over every transport, balance and usage are the ledger's", async () => {
      const deps = t.server.deps;
      const me = await accountWithKey(deps, { plan: "professional", tier: "standard", credits: 500 });
      const them = await accountWithKey(deps, { plan: "free", credits: 500 });
      await topUpCredits(deps, { accountId: me.accountId, credits: 3000, reference: "INV-2026-0042" });
      await gradedPractice(deps, me.accountId, OWN);
      await gradedPractice(deps, them.accountId, OTHERS);
      const key = me.apiKey;
      const taken: number[] = [];
      const grade = await rest(key, `/v1/a2a/grade/${OWN}`);
      taken.push(charged(grade));
      const rpcGrade = await rpc(key, "hipaa.grade", { npi: OTHERS });
      expect(rpcGrade.json.result.npi).toBe(OTHERS);
      taken.push(charged(rpcGrade));
      const findings = await mcp(key, "hipaa_findings", { npi: OWN });
      expect(findings.json.result.isError, findings.text).toBeFalsy();
      taken.push(findings.json.result._meta["hcs/call"].credits_charged);
      const batch = await a2a(key, "hipaa.batch", { npis: [OWN, OTHERS, UNKNOWN], operation: "grade" });
      expect(batch.json.error, batch.text).toBeUndefined();
      taken.push(charged(batch));
      const scan = await rest(key, "/v1/a2a/scans/dispatch", { method: "POST", body: { npi: OWN } });
      expect(scan.status, scan.text).toBe(202);
      taken.push(charged(scan));
      // Cancelled before a worker ran it: its 150 credits come back.
      const cancel = await rest(key, `/v1/a2a/jobs/${scan.json.job_id}/cancel`, { method: "POST" });
      expect(cancel.json.error?.code).toBe("cancelled");
      const sra = await rest(key, `/v1/a2a/sra/${OWN}`, { method: "POST", body: {} });
      expect(sra.status, sra.text).toBe(200);
      taken.push(charged(sra));
      // Not charged: a valid NPI no practice here has.
      expect((await rest(key, `/v1/a2a/grade/${UNKNOWN}`)).json.error.code).toBe("npi_not_found");
      expect(taken).toEqual([25, 25, 25, 50, 150, 500]);

      const a = await account(key);
      const ledger = await usageFromLedger(t, me.accountId);
      const held = await deps.store.db
        .selectFrom("accounts")
        .select("credits")
        .where("id", "=", me.accountId)
        .executeTakeFirstOrThrow();
      expect(a.balance).toBe(held.credits);
      expect(a.balance).toBe(Number(ledger.rows.at(-1)!.balance_after));
      expect(a.balance).toBe(500 + 3000 - 25 - 25 - 25 - 50 - 150 + 150 - 500);
      expect(a.current_period.usage).toEqual(ledger.usage);
      expect(a.current_period.usage).toEqual([
        { operation: "grade", calls: 3, charged: 100, refunded: 0, credits: 100 },
        { operation: "findings", calls: 1, charged: 25, refunded: 0, credits: 25 },
        { operation: "full_scan", calls: 1, charged: 150, refunded: 150, credits: 0 },
        { operation: "sra", calls: 1, charged: 500, refunded: 0, credits: 500 },
      ]);
      expect(a.current_period).toMatchObject({
        plan: "professional",
        usage_credits: 625,
        annual_minimum: 5000,
        minimum_shortfall: 4375,
        credits_added: 3500,
        opening_balance: 0,
        closing_balance: a.balance,
      });
      // The windows this key is counted in, as the pipeline counts them: the account call itself counts too.
      expect(a.rate_limits.counted_per).toBe("key");
      expect(a.rate_limits.group_a?.windows.map((w) => [w.window_seconds, w.limit])).toEqual([
        [60, 100],
        [3600, 1000],
      ]);
      const [b] = a.rate_limits.group_b.windows;
      expect(b).toMatchObject({ window_seconds: 60, limit: 60, resets_at: "2026-11-22T12:01:00.000Z" });
      expect(b!.used).toBeGreaterThanOrEqual(8);
      expect(b!.remaining).toBe(60 - b!.used);
      const again = await account(key);
      expect(again.rate_limits.group_b.windows[0]!.used).toBe(b!.used + 1);

      // The other account sees only its own: its balance, no usage of this one.
      const theirs = await account(them.apiKey);
      expect(theirs).toMatchObject({ account_id: them.accountId, balance: 500, plan: "free" });
      expect(theirs.current_period.usage).toEqual([]);
      expect(JSON.stringify(theirs)).not.toContain(me.accountId);

      // The agent transports answer the same account (hipaa.account), free as over REST.
      const viaRpc = await rpc(key, "hipaa.account", {});
      expect(AccountOverviewSchema.parse(viaRpc.json.result)).toMatchObject({
        account_id: me.accountId,
        balance: a.balance,
      });
      const viaMcp = await mcp(key, "hipaa_account", {});
      expect(viaMcp.json.result.structuredContent).toMatchObject({ account_id: me.accountId, balance: a.balance });
      expect(viaMcp.json.result.content[0].text).toContain(`${a.balance.toLocaleString("en-US")} credits`);
      expect(viaMcp.json.result.content[0].text).toContain(CONTACT);
      const viaA2a = await a2a(key, "hipaa.account", {});
      expect(viaA2a.text).toContain(me.accountId);
      expect((await account(key)).balance).toBe(a.balance);
    }, 60_000);

    it("402 and 403 that point to an upgrade name the contact address, on every transport", async () => {
      const deps = t.server.deps;
      const broke = await accountWithKey(deps, { plan: "free", credits: 0 });
      const key = broke.apiKey;
      const refusals: { transport: string; code: string; message: string; contact: unknown }[] = [];
      const r = await rest(key, `/v1/a2a/grade/${OWN}`);
      refusals.push({
        transport: "rest",
        code: r.json.error.code,
        message: r.json.error.message,
        contact: r.json.error.details.contact_email,
      });
      const j = await rpc(key, "hipaa.grade", { npi: OWN });
      refusals.push({
        transport: "jsonrpc",
        code: j.json.error.data.code,
        message: j.json.error.message,
        contact: j.json.error.data.details.contact_email,
      });
      const m = await mcp(key, "hipaa_grade", { npi: OWN });
      const meta = m.json.result._meta["hcs/error"];
      refusals.push({
        transport: "mcp",
        code: meta.code,
        message: m.json.result.content[0].text,
        contact: meta.details.contact_email,
      });
      const s = await a2a(key, "hipaa.grade", { npi: OWN });
      refusals.push({
        transport: "a2a",
        code: s.json.error.data.code,
        message: s.json.error.message,
        contact: s.json.error.data.details.contact_email,
      });
      // Group A (REST only) with a free key: 403 plan_required.
      const g = await t.request("/v1/practice", { headers: { Authorization: `Bearer ${key}` } });
      expect(g.status).toBe(403);
      refusals.push({
        transport: "rest (Group A)",
        code: g.json.error.code,
        message: g.json.error.message,
        contact: g.json.error.details.contact_email,
      });
      for (const x of refusals) {
        expect(x.code, x.transport).toBe(x.transport === "rest (Group A)" ? "plan_required" : "insufficient_credits");
        expect(x.message, x.transport).toContain(CONTACT);
        expect(x.contact, x.transport).toBe(CONTACT);
      }
      expect(r.status).toBe(402);
      expect(r.json.error.details).toMatchObject({ required: 25, balance: 0 });
      // Nothing was charged or counted as usage.
      expect((await account(key)).current_period.usage).toEqual([]);
    });

    it("the agent card publishes the plan table and the contact address", async () => {
      const card = (await t.request("/.well-known/agent-card.json")).json;
      const pricing = card.capabilities.extensions[0].params;
      expect(pricing.contact_email).toBe(CONTACT);
      expect(pricing.per_check_prices).toEqual(CREDIT_PRICES);
      expect(pricing.plans.map((p: { plan: string; annual_minimum: number }) => [p.plan, p.annual_minimum])).toEqual([
        ["free", 0],
        ["professional", 5000],
        ["enterprise", 5000],
      ]);
      expect(pricing.credits_per_call["hipaa.account"]).toBe(0);
    });
  });
}

accountSuite("sqlite");
describe.skipIf(!(await shouldRunPostgres()))("postgres", () => accountSuite("postgres"));
