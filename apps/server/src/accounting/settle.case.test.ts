import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSecretBox } from "../secrets/master-key.js";
import { type AuditEvent, outcomeOf } from "../services/audit.js";
import type { ServiceDeps } from "../services/deps.js";
import { auditEvent } from "../test-support/audit-events.js";
import { accountWithKey } from "../test-support/fixtures.js";
import { forEachEngine, type OpenedStore } from "../test-support/store-engines.js";
import { type SettlementPlan, settle } from "./settle.js";

const NOW = Date.parse("2026-11-24T09:00:30Z");
/** The one statement a PostgreSQL group commit sends. */
const SETTLE = "select hcs_settle_group($1::jsonb) as settled";

/**
 * A call's settlement as the request path plans it: counted under `limit`/min for `bucket`, `credits` taken when it
 * succeeds, audited each way it can end unless `audits` says otherwise.
 */
function plan(
  n: number,
  accountId: string,
  o: { bucket?: string; limit?: number; credits?: number; audits?: (status: number) => boolean } = {},
): SettlementPlan {
  const audits = o.audits ?? (() => true);
  return {
    rate: { bucket: o.bucket ?? `b:key:${accountId}`, windows: [{ limit: o.limit ?? 1000, windowMs: 60_000 }] },
    charge: { accountId, operation: "grade", credits: o.credits ?? 25 },
    audit: {
      audits,
      event: (status, code): AuditEvent | null =>
        audits(status)
          ? {
              ...auditEvent(n),
              actor_account_id: accountId,
              status,
              code,
              outcome: outcomeOf(status),
              client_ip: `10.0.0.${n % 250}`,
              duration_ms: n + 0.25,
            }
          : null,
    },
    status: 200,
    code: null,
    reference: `req-${n}`,
    nowMs: NOW,
  };
}

forEachEngine((engine, open) => {
  describe(`settling a group commit on ${engine}`, () => {
    let opened: OpenedStore;
    let deps: ServiceDeps;
    beforeAll(async () => {
      opened = await open();
      await opened.store.migrate();
      deps = { store: opened.store, now: () => new Date(NOW), secrets: createSecretBox(Buffer.alloc(32, 7)) };
    });
    afterAll(async () => {
      await opened.store.close();
      await opened.cleanup();
    });

    const rows = <T>(text: string, params: unknown[] = []) => deps.store.hot.all<T>(deps.store.db, text, params);
    const ledgerOf = async (accountId: string) =>
      (
        await rows<{ reference: string; delta: number; balance_after: number }>(
          "select reference, delta, balance_after from credit_ledger where account_id = ? and operation = 'grade' order by id",
          [accountId],
        )
      ).map((r) => [r.reference, Number(r.delta), Number(r.balance_after)]);
    const eventsOf = async (accountId: string) =>
      (
        await rows<{ request_id: string; status: number; code: string | null; outcome: string; client_ip: string }>(
          "select request_id, status, code, outcome, client_ip from audit_trail where actor_account_id = ? order by id",
          [accountId],
        )
      ).map((r) => [r.request_id, Number(r.status), r.code, r.outcome, r.client_ip]);

    it("100 concurrent metered calls on 500 credits: exactly 20 charged, the rest 402 uncharged, each audited as it ended", async () => {
      const { accountId } = await accountWithKey(deps, { credits: 500 });
      const settled = await Promise.all(Array.from({ length: 100 }, (_, n) => settle(deps, plan(n, accountId))));
      // Counted in turn, in submission order: each call saw its own count.
      expect(settled.map((s) => s.windows![0]!.count)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      expect(settled.filter((s) => s.veto === null).map((s) => s.balance)).toEqual(
        Array.from({ length: 20 }, (_, i) => 475 - 25 * i),
      );
      expect(settled.filter((s) => s.veto?.code === "insufficient_credits")).toHaveLength(80);
      expect(settled.every((s, n) => (n < 20 ? s.veto === null : s.balance === 0))).toBe(true);
      const [account] = await rows<{ credits: number }>("select credits from accounts where id = ?", [accountId]);
      expect(Number(account!.credits)).toBe(0);
      expect(await ledgerOf(accountId)).toEqual(Array.from({ length: 20 }, (_, n) => [`req-${n}`, -25, 475 - 25 * n]));
      expect(await eventsOf(accountId)).toEqual(
        Array.from({ length: 100 }, (_, n) =>
          n < 20
            ? [`req-${n}`, 200, null, "success", `10.0.0.${n}`]
            : [`req-${n}`, 402, "insufficient_credits", "denied", `10.0.0.${n}`],
        ),
      );
    });

    it("a call over its limit is refused by its count, not charged, and audited as the 429 only if 429s are", async () => {
      const { accountId } = await accountWithKey(deps, { credits: 10_000 });
      const bucket = `b:key:limited-${engine}`;
      // Calls 5 and 7 are over the limit; 7's plan audits no 429.
      const settled = await Promise.all(
        Array.from({ length: 8 }, (_, n) =>
          settle(deps, plan(n, accountId, { bucket, limit: 5, ...(n === 7 ? { audits: (s) => s !== 429 } : {}) })),
        ),
      );
      expect(settled.map((s) => s.veto?.code ?? null)).toEqual([
        null,
        null,
        null,
        null,
        null,
        "rate_limited",
        "rate_limited",
        "rate_limited",
      ]);
      expect(settled.map((s) => s.balance)).toEqual([9975, 9950, 9925, 9900, 9875, null, null, null]);
      expect((await ledgerOf(accountId)).map(([reference]) => reference)).toEqual(
        Array.from({ length: 5 }, (_, n) => `req-${n}`),
      );
      expect((await eventsOf(accountId)).map(([id, status]) => [id, status])).toEqual([
        ["req-0", 200],
        ["req-1", 200],
        ["req-2", 200],
        ["req-3", 200],
        ["req-4", 200],
        ["req-5", 429],
        ["req-6", 429],
      ]);
      const [counter] = await rows<{ count: number }>("select count from rate_limits where bucket = ?", [
        `${bucket}:60000`,
      ]);
      expect(Number(counter!.count)).toBe(8);
      // The next group goes on counting where this one stopped.
      const next = await settle(deps, plan(8, accountId, { bucket, limit: 5 }));
      expect(next.windows![0]!.count).toBe(9);
      expect(next.limited?.retryAfter).toBe(30);
    });

    it("charges in turn across accounts: a balance may run short mid-group and a smaller charge after it still fits", async () => {
      const a = await accountWithKey(deps, { credits: 70 });
      const b = await accountWithKey(deps, { credits: 1_000 });
      const amounts = [30, 25, 40, 15, 5];
      const settled = await Promise.all([
        ...amounts.map((credits, n) => settle(deps, plan(100 + n, a.accountId, { credits }))),
        settle(deps, plan(200, b.accountId, { credits: 10 })),
        // Not audited at 402: refused uncharged without an event.
        settle(deps, plan(105, a.accountId, { credits: 50, audits: (s) => s !== 402 })),
      ]);
      expect(settled.map((s) => [s.veto?.code ?? null, s.balance])).toEqual([
        [null, 40],
        [null, 15],
        ["insufficient_credits", 15],
        [null, 0],
        ["insufficient_credits", 0],
        [null, 990],
        ["insufficient_credits", 0],
      ]);
      expect(await ledgerOf(a.accountId)).toEqual([
        ["req-100", -30, 40],
        ["req-101", -25, 15],
        ["req-103", -15, 0],
      ]);
      expect(await ledgerOf(b.accountId)).toEqual([["req-200", -10, 990]]);
      expect((await eventsOf(a.accountId)).map(([id, status]) => [id, status])).toEqual([
        ["req-100", 200],
        ["req-101", 200],
        ["req-102", 402],
        ["req-103", 200],
        ["req-104", 402],
      ]);
    });

    it("a call answered with an error is counted and audited as answered, and a free call is not charged", async () => {
      const { accountId } = await accountWithKey(deps, { credits: 100 });
      const failed = { ...plan(300, accountId), charge: null, status: 404, code: "not_found" };
      const free = plan(301, accountId, { credits: 0 });
      const [a, b] = await Promise.all([settle(deps, failed), settle(deps, free)]);
      expect([a.veto, a.balance, a.windows![0]!.count]).toEqual([null, null, 1]);
      expect([b.veto, b.balance, b.windows![0]!.count]).toEqual([null, null, 2]);
      expect(await ledgerOf(accountId)).toEqual([]);
      expect(await eventsOf(accountId)).toEqual([
        ["req-300", 404, "not_found", "failure", "10.0.0.50"],
        ["req-301", 200, null, "success", "10.0.0.51"],
      ]);
    });

    it("settles the same when its group shares a transaction with other writes of the same turn", async () => {
      const { accountId } = await accountWithKey(deps, { credits: 60 });
      // Another write queued in the same event-loop turn: the batch is one transaction (PostgreSQL: the group's one
      // statement runs inside it, between BEGIN and COMMIT).
      const [, ...settled] = await Promise.all([
        deps.store.writes.run((trx) =>
          trx.updateTable("accounts").set({ name: "Renamed in the same turn" }).where("id", "=", accountId).execute(),
        ),
        ...[500, 501, 502].map((n) => settle(deps, plan(n, accountId))),
      ]);
      expect(settled.map((s) => [s.veto?.code ?? null, s.balance])).toEqual([
        [null, 35],
        [null, 10],
        ["insufficient_credits", 10],
      ]);
      const [account] = await rows<{ name: string; credits: number }>(
        "select name, credits from accounts where id = ?",
        [accountId],
      );
      expect([account!.name, Number(account!.credits)]).toEqual(["Renamed in the same turn", 10]);
      expect((await eventsOf(accountId)).map(([id, status]) => [id, status])).toEqual([
        ["req-500", 200],
        ["req-501", 200],
        ["req-502", 402],
      ]);
    });

    it("one call whose write fails fails alone; its neighbours in the group are written", async () => {
      const { accountId } = await accountWithKey(deps, { credits: 1_000 });
      const good = plan(400, accountId);
      // An event without its request id is refused (a NOT NULL column on PostgreSQL, the writer's check on SQLite):
      // this call's event cannot be inserted, nor anything else of its group.
      const broken: SettlementPlan = {
        ...plan(401, accountId),
        audit: {
          audits: () => true,
          event: (status, code) => ({ ...plan(401, accountId).audit.event(status, code)!, request_id: null as never }),
        },
      };
      const results = await Promise.allSettled([
        settle(deps, good),
        settle(deps, broken),
        settle(deps, plan(402, accountId)),
      ]);
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect(await ledgerOf(accountId)).toEqual([
        ["req-400", -25, 975],
        ["req-402", -25, 950],
      ]);
      expect((await eventsOf(accountId)).map(([id]) => id)).toEqual(["req-400", "req-402"]);
    });
  });
});

forEachEngine((engine, open) => {
  describe.skipIf(engine !== "postgres")(`a settlement group commit's round trips on ${engine}`, () => {
    it("settles a group of 10 calls in one statement, no BEGIN or COMMIT; beside another write, inside its transaction", async () => {
      // Every statement any connection of this process sends goes through Client.query (the store's pool wraps each
      // client's query at connect, so the spy goes in before the store connects).
      const sent = vi.spyOn(pg.Client.prototype, "query");
      const opened = await open();
      try {
        await opened.store.migrate();
        const deps = { store: opened.store, now: () => new Date(NOW), secrets: createSecretBox(Buffer.alloc(32, 7)) };
        const { accountId } = await accountWithKey(deps, { credits: 100 });
        const texts = () =>
          sent.mock.calls.map(([query]) => (typeof query === "string" ? query : (query as { text: string }).text));
        sent.mockClear();
        const settled = await Promise.all(Array.from({ length: 10 }, (_, n) => settle(deps, plan(n, accountId))));
        expect(texts()).toEqual([SETTLE]);
        // …and that one statement did the whole group, committed.
        expect(settled.map((s) => s.veto?.code ?? null)).toEqual([
          null,
          null,
          null,
          null,
          "insufficient_credits",
          "insufficient_credits",
          "insufficient_credits",
          "insufficient_credits",
          "insufficient_credits",
          "insufficient_credits",
        ]);
        const other = opened.another();
        try {
          const count = async (text: string) =>
            Number((await other.hot.all<{ n: number }>(other.db, text, [accountId]))[0]!.n);
          expect(await count("select credits as n from accounts where id = ?")).toBe(0);
          expect(
            await count("select count(*) as n from credit_ledger where account_id = ? and operation = 'grade'"),
          ).toBe(4);
          expect(await count("select count(*) as n from audit_events where actor_account_id = ?")).toBe(10);
        } finally {
          await other.close();
        }
        // A group that shares its event-loop turn with another write rides in that write's transaction: its one
        // statement between BEGIN and COMMIT.
        sent.mockClear();
        await Promise.all([
          opened.store.writes.run((trx) =>
            trx.updateTable("accounts").set({ name: "Renamed" }).where("id", "=", accountId).execute(),
          ),
          settle(deps, plan(10, accountId, { credits: 0 })),
        ]);
        expect(texts()).toEqual(["begin", expect.stringMatching(/^update "accounts" set "name"/), SETTLE, "commit"]);
      } finally {
        sent.mockRestore();
        await opened.store.close();
        await opened.cleanup();
      }
    });
  });
});
