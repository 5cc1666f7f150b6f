import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargeCredits, grantCredits } from "../accounting/index.js";
import { RESERVATION_REFUND } from "../operations/invoke.js";
import { createSecretBox } from "../secrets/master-key.js";
import { insertRows } from "../store/hot-sql.js";
import type { Engine } from "../store/migrations/engine.js";
import type { Store } from "../store/store.js";
import { forEachEngine, type OpenTestStore } from "../test-support/store-engines.js";
import { planHistory, setAccountPlan } from "./account-plans.js";
import { createAccount } from "./accounts.js";
import { topUpCredits } from "./credit-top-ups.js";
import type { ServiceDeps } from "./deps.js";
import { statementPeriods, usageStatements } from "./usage-statements.js";

describe("statement periods", () => {
  it("are plan years from the plan's start; the year `now` falls in is open", () => {
    const periods = statementPeriods(
      [{ plan: "professional", start: "2024-03-10T08:00:00.000Z" }],
      "2026-01-01T00:00:00.000Z",
    );
    expect(periods).toEqual([
      {
        plan: "professional",
        start: "2024-03-10T08:00:00.000Z",
        end: "2025-03-10T08:00:00.000Z",
        state: "closed",
        annualMinimum: 5000,
      },
      {
        plan: "professional",
        start: "2025-03-10T08:00:00.000Z",
        end: "2026-03-10T08:00:00.000Z",
        state: "open",
        annualMinimum: 5000,
      },
    ]);
  });

  it("end where a new plan starts, with the minimum pro rata; the new plan counts its own years", () => {
    const periods = statementPeriods(
      [
        { plan: "free", start: "2025-01-01T00:00:00.000Z" },
        { plan: "professional", start: "2025-02-01T00:00:00.000Z" },
        { plan: "enterprise", start: "2025-08-02T00:00:00.000Z" },
      ],
      "2025-09-01T00:00:00.000Z",
    );
    expect(periods.map((p) => [p.plan, p.start.slice(0, 10), p.end.slice(0, 10), p.state, p.annualMinimum])).toEqual([
      ["free", "2025-01-01", "2025-02-01", "closed", 0],
      // 182 of the year's 365 days.
      ["professional", "2025-02-01", "2025-08-02", "closed", Math.round((5000 * 182) / 365)],
      ["enterprise", "2025-08-02", "2026-08-02", "open", 5000],
    ]);
  });

  it("skip a plan that lasted no time, and end a 29 February start's year on 1 March", () => {
    const periods = statementPeriods(
      [
        { plan: "free", start: "2028-02-29T00:00:00.000Z" },
        { plan: "professional", start: "2028-02-29T00:00:00.000Z" },
      ],
      "2028-03-01T00:00:00.000Z",
    );
    expect(periods).toEqual([
      {
        plan: "professional",
        start: "2028-02-29T00:00:00.000Z",
        end: "2029-03-01T00:00:00.000Z",
        state: "open",
        annualMinimum: 5000,
      },
    ]);
  });
});

/** Plans, top-ups and the statements made from the ledger, on both engines. */
function statementsSuite(engine: Engine, open: OpenTestStore) {
  describe(`usage statements on ${engine}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let clock = Date.parse("2025-01-10T09:00:00.000Z");
    let deps: ServiceDeps;
    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await store.migrate();
      deps = { store, now: () => new Date(clock), secrets: createSecretBox(Buffer.alloc(32, 7)) };
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    const at = () => new Date(clock).toISOString();
    const charge = (accountId: string, operation: string, amount: number, reference: string) =>
      store.writes.run((trx) => chargeCredits(store.hot, trx, { accountId, amount, operation, reference, at: at() }));
    const refund = (accountId: string, operation: string, amount: number, reference: string) =>
      store.writes.run((trx) => grantCredits(trx, { accountId, amount, operation, reference, at: at() }));
    const days = (n: number) => {
      clock += n * 86_400_000;
    };

    it("count each operation's calls, charges and refunds per period, and the balances match the ledger", async () => {
      const { account } = await createAccount(deps, { name: "Lakeside", plan: "free", tier: "standard", credits: 500 });
      const id = account.id;
      days(1);
      await charge(id, "grade", 25, "req-1");
      await charge(id, "grade", 25, "req-2");
      // A batch of three graded NPIs: one call.
      await charge(id, "grade", 75, "req-3");
      // A scan charged at dispatch, refunded when its job failed.
      await charge(id, "full_scan", 150, "job:j1");
      await refund(id, "refund", 150, "job:j1");
      days(10);
      const upgrade = await setAccountPlan(deps, { accountId: id, plan: "professional" });
      expect(upgrade).toMatchObject({
        previous: { plan: "free", tier: "standard" },
        plan: "professional",
        newPeriod: true,
      });
      await topUpCredits(deps, { accountId: id, credits: 5000, reference: "INV-2025-001" });
      days(2);
      // A vendor check that reserved two domains' scans and used one: one call.
      await charge(id, "vendor_risk", 325, "req-4");
      await refund(id, RESERVATION_REFUND, 150, "req-4");
      await charge(id, "sra", 500, "req-5");
      // A tier change alone starts no new period.
      expect((await setAccountPlan(deps, { accountId: id, plan: "professional", tier: "bulk" })).newPeriod).toBe(false);
      expect((await planHistory(deps, id)).map((s) => s.plan)).toEqual(["free", "professional"]);

      const statements = await usageStatements(deps, id, statementPeriods(await planHistory(deps, id), at()));
      expect(statements).toHaveLength(2);
      const [free, professional] = statements;
      expect(free).toMatchObject({
        plan: "free",
        state: "closed",
        usage: [
          { operation: "grade", calls: 3, charged: 125, refunded: 0, credits: 125 },
          { operation: "full_scan", calls: 1, charged: 150, refunded: 150, credits: 0 },
        ],
        usage_credits: 125,
        annual_minimum: 0,
        minimum_shortfall: 0,
        credits_added: 500,
        opening_balance: 0,
        closing_balance: 375,
      });
      expect(professional).toMatchObject({
        plan: "professional",
        state: "open",
        usage: [
          { operation: "sra", calls: 1, charged: 500, refunded: 0, credits: 500 },
          { operation: "vendor_risk", calls: 1, charged: 325, refunded: 150, credits: 175 },
        ],
        usage_credits: 675,
        annual_minimum: 5000,
        minimum_shortfall: 4325,
        credits_added: 5000,
        opening_balance: 375,
      });
      const balance = await store.db
        .selectFrom("accounts")
        .select("credits")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      const last = await store.db
        .selectFrom("credit_ledger")
        .select("balance_after")
        .where("account_id", "=", id)
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      expect(professional!.closing_balance).toBe(balance.credits);
      expect(professional!.closing_balance).toBe(Number(last.balance_after));
      for (const s of statements) expect(s.closing_balance).toBe(s.opening_balance + s.credits_added - s.usage_credits);
    });

    it("attribute refunds by one grouped read beyond 500 refunded calls, and compute again only when the ledger changed", async () => {
      const { account } = await createAccount(deps, { name: "Busy", plan: "professional", tier: "bulk", credits: 0 });
      const id = account.id;
      const rows: unknown[][] = [];
      let balance = 0;
      const row = (delta: number, operation: string, reference: string | null) => {
        balance += delta;
        rows.push([id, delta, balance, operation, reference, at()]);
      };
      for (let i = 0; i < 501; i++) {
        row(1000, "grant", null);
        row(-150, "full_scan", `job:busy-${i}`);
        row(150, "refund", `job:busy-${i}`);
      }
      row(-500, "sra", "req-busy");
      for (let i = 0; i < rows.length; i += 300)
        await store.writes.run((trx) =>
          insertRows(
            store.hot,
            trx,
            "credit_ledger",
            ["account_id", "delta", "balance_after", "operation", "reference", "created_at"],
            rows.slice(i, i + 300),
          ),
        );
      await store.db.updateTable("accounts").set({ credits: balance }).where("id", "=", id).execute();
      const periods = statementPeriods(await planHistory(deps, id), at());
      const first = await usageStatements(deps, id, periods);
      expect(first.at(-1)).toMatchObject({
        usage: [
          { operation: "full_scan", calls: 501, charged: 501 * 150, refunded: 501 * 150, credits: 0 },
          { operation: "sra", calls: 1, charged: 500, refunded: 0, credits: 500 },
        ],
        usage_credits: 500,
        credits_added: 501_000,
        closing_balance: balance,
      });
      // Unchanged ledger: the statements kept; a new row: computed again.
      expect(await usageStatements(deps, id, periods)).toBe(first);
      expect((await charge(id, "grade", 25, "req-busy-2")).charged).toBe(true);
      const again = await usageStatements(deps, id, periods);
      expect(again).not.toBe(first);
      expect(again.at(-1)!.usage_credits).toBe(525);
    });

    it("credit a payment's reference once, and refuse bad top-ups with typed errors", async () => {
      const { account } = await createAccount(deps, {
        name: "Once",
        plan: "professional",
        tier: "standard",
        credits: 0,
      });
      const first = await topUpCredits(deps, { accountId: account.id, credits: 1200, reference: "pay_123" });
      expect(first).toMatchObject({ credits: 1200, balance: 1200, reference: "pay_123" });
      await expect(
        topUpCredits(deps, { accountId: account.id, credits: 1200, reference: "pay_123" }),
      ).rejects.toMatchObject({
        code: "conflict",
      });
      // Two at once: one is credited.
      const both = await Promise.allSettled([
        topUpCredits(deps, { accountId: account.id, credits: 10, reference: "pay_124" }),
        topUpCredits(deps, { accountId: account.id, credits: 10, reference: "pay_124" }),
      ]);
      expect(both.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
      // Without a reference, nothing to repeat.
      await topUpCredits(deps, { accountId: account.id, credits: 5, reference: null });
      await topUpCredits(deps, { accountId: account.id, credits: 5, reference: null });
      const held = await store.db
        .selectFrom("accounts")
        .select("credits")
        .where("id", "=", account.id)
        .executeTakeFirstOrThrow();
      expect(held.credits).toBe(1220);
      for (const bad of [
        { accountId: account.id, credits: 0, reference: null },
        { accountId: account.id, credits: 1.5, reference: null },
        { accountId: account.id, credits: 10, reference: "has space" },
        { accountId: account.id, credits: 2_147_483_647, reference: null },
      ])
        await expect(topUpCredits(deps, bad)).rejects.toMatchObject({ code: "invalid_body" });
      await expect(topUpCredits(deps, { accountId: "acct_none", credits: 1, reference: null })).rejects.toMatchObject({
        code: "not_found",
      });
      await expect(setAccountPlan(deps, { accountId: "acct_none", plan: "free" })).rejects.toMatchObject({
        code: "not_found",
      });
    });
  });
}

forEachEngine(statementsSuite);
