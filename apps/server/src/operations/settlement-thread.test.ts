import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { windowCounters } from "../http/rate-limit.js";
import { createSecretBox, loadMasterKey } from "../secrets/master-key.js";
import type { AuditEvent } from "../services/audit.js";
import type { ServiceDeps } from "../services/deps.js";
import { isStoreUnavailable } from "../store/availability.js";
import { openStore, type Store } from "../store/store.js";
import { auditEvent } from "../test-support/audit-events.js";
import { accountWithKey } from "../test-support/fixtures.js";
import type { SettlementWrite } from "./settle-writes.js";
import { SettlementThread } from "./settlement-thread.js";

// The writer thread against a real database file: the serving thread's store and the thread's own connection to it.
let dir: string;
let store: Store;
let deps: ServiceDeps;
let thread: SettlementThread;
const NOW = Date.parse("2026-11-24T09:00:00Z");

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "hcs-settlement-thread-"));
  store = openStore({ engine: "sqlite", file: join(dir, "hcs.sqlite") });
  await store.migrate();
  deps = { store, now: () => new Date(NOW), secrets: createSecretBox(loadMasterKey(dir, null)) };
  thread = new SettlementThread(store.file!);
});

afterEach(async () => {
  await thread.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A metered lookup's settlement: counted under `limit`/min for `bucket`, 25 credits, audited each way it can end. */
function lookup(n: number, accountId: string, o: { bucket?: string; limit?: number; event?: AuditEvent } = {}) {
  const rate = { bucket: o.bucket ?? "b:key:k1", windows: [{ limit: o.limit ?? 1000, windowMs: 60_000 }] };
  const event = o.event ?? { ...auditEvent(n), actor_account_id: accountId };
  return {
    rate,
    counters: windowCounters(rate, NOW),
    nowMs: NOW,
    charge: { accountId, amount: 25, operation: "grade", reference: `req-${n}`, at: new Date(NOW).toISOString() },
    status: 200,
    code: null,
    audit: { event, answered: true, limited: true, short: true },
  } satisfies SettlementWrite;
}

const countOf = async (sql: string) => Number((await store.hot.all<{ n: number }>(store.db, sql, []))[0]!.n);

describe("the settlement writer thread", () => {
  it("100 concurrent metered calls on 500 credits: exactly 20 charged, the rest refused uncharged, every one audited", async () => {
    const { accountId } = await accountWithKey(deps, { credits: 500 });
    const written = await Promise.all(Array.from({ length: 100 }, (_, n) => thread.write(lookup(n, accountId))));
    expect(written.filter((w) => w.charge?.charged)).toHaveLength(20);
    expect(written.filter((w) => w.charge && !w.charge.charged)).toHaveLength(80);
    // Counted in turn: each call saw its own count.
    expect(written.map((w) => w.counts![0]).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    expect(await countOf(`select credits as n from accounts where id = '${accountId}'`)).toBe(0);
    expect(await countOf("select count(*) as n from credit_ledger where operation = 'grade'")).toBe(20);
    expect(await countOf("select count(*) as n from audit_events where status = 200")).toBe(20);
    expect(await countOf("select count(*) as n from audit_events where status = 402")).toBe(80);
    expect(await countOf("select count(*) as n from audit_context")).toBe(100);
  });

  it("groups in flight together are written in the order sent: each call counted and charged in its turn", async () => {
    // Groups of 7: the 100 calls make 15 groups, two of them in flight at a time.
    const small = new SettlementThread(store.file!, () => {}, 7);
    try {
      const { accountId } = await accountWithKey(deps, { credits: 500 });
      const written = await Promise.all(Array.from({ length: 100 }, (_, n) => small.write(lookup(n, accountId))));
      expect(written.map((w) => w.counts![0])).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      expect(written.map((w) => w.charge?.charged)).toEqual(Array.from({ length: 100 }, (_, i) => i < 20));
      expect(written.map((w) => w.charge?.balance)).toEqual(
        Array.from({ length: 100 }, (_, i) => (i < 20 ? 500 - 25 * (i + 1) : 0)),
      );
      expect(await countOf("select count(*) as n from audit_events where status = 402")).toBe(80);
    } finally {
      await small.close();
    }
  });

  it("a call over its limit is refused by its count, not charged, and audited as the 429", async () => {
    const { accountId } = await accountWithKey(deps, { credits: 10_000 });
    const written = await Promise.all(
      Array.from({ length: 8 }, (_, n) => thread.write(lookup(n, accountId, { bucket: "b:key:limited", limit: 5 }))),
    );
    expect(written.filter((w) => w.charge === null)).toHaveLength(3);
    expect(await countOf("select count(*) as n from credit_ledger where operation = 'grade'")).toBe(5);
    expect(await countOf("select count(*) as n from audit_events where status = 429")).toBe(3);
    expect(await countOf("select count as n from rate_limits where bucket = 'b:key:limited:60000'")).toBe(8);
  });

  it("one call whose write fails fails alone; its neighbours in the group are written", async () => {
    const { accountId } = await accountWithKey(deps, { credits: 10_000 });
    // An event without its request id is refused (the writer's check on SQLite): this call's event cannot be inserted.
    const broken = lookup(99, accountId, {
      event: { ...auditEvent(99), request_id: null as unknown as string, actor_account_id: accountId },
    });
    const results = await Promise.allSettled([
      thread.write(lookup(1, accountId)),
      thread.write(broken),
      thread.write(lookup(2, accountId)),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(isStoreUnavailable((results[1] as PromiseRejectedResult).reason)).toBe(false);
    expect(await countOf("select count(*) as n from credit_ledger where operation = 'grade'")).toBe(2);
    expect(await countOf("select count(*) as n from audit_events")).toBe(2);
  });

  it("if the thread dies with calls in flight they fail as 'store unavailable'; a new thread serves the next", async () => {
    const { accountId } = await accountWithKey(deps, { credits: 10_000 });
    await thread.write(lookup(0, accountId)); // the thread is up
    const inFlight = Promise.allSettled(Array.from({ length: 10 }, (_, n) => thread.write(lookup(n + 1, accountId))));
    // The group is sent on the next turn; kill the thread as it arrives (what a crash of the thread looks like).
    await new Promise((r) => setImmediate(r));
    await (thread as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    const settled = await inFlight;
    for (const r of settled) {
      // Either written before the kill, or refused as unavailable: never a half-written call.
      if (r.status === "rejected") expect(isStoreUnavailable(r.reason)).toBe(true);
    }
    const after = await thread.write(lookup(50, accountId));
    expect(after.charge?.charged).toBe(true);
    const ledger = await countOf("select count(*) as n from credit_ledger where operation = 'grade'");
    const events = await countOf("select count(*) as n from audit_events");
    expect(ledger).toBe(events); // each charge with its event, in one transaction
  });

  it("the serving thread's own read-then-write transactions do not fail while the thread commits beside them", async () => {
    const { accountId } = await accountWithKey(deps, { credits: 1_000_000 });
    await thread.write(lookup(-1, accountId)); // the thread is up
    // The thread commits group after group meanwhile.
    let pumping = true;
    let written = 0;
    const pump = (async () => {
      while (pumping) {
        await thread.write(lookup(written, accountId));
        written++;
      }
    })();
    for (let i = 0; written < 40 && i < 5000; i++) {
      await store.db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom("accounts")
          .select("credits")
          .where("id", "=", accountId)
          .executeTakeFirstOrThrow();
        // Time for the thread to commit between this transaction's read and its write: a deferred transaction would
        // then fail its write (SQLITE_BUSY_SNAPSHOT); this one holds the write lock from its start.
        await new Promise((r) => setTimeout(r, 2));
        await trx
          .updateTable("accounts")
          .set({ name: `Clinic ${row.credits}` })
          .where("id", "=", accountId)
          .execute();
      });
      // Between transactions the thread gets its turn at the write lock (SQLite's wait for a lock is not fair: a
      // connection that takes the lock back at once, transaction after transaction, starves the other).
      await new Promise((r) => setTimeout(r, 1));
    }
    pumping = false;
    await pump;
    expect(written).toBeGreaterThanOrEqual(40);
    expect(await countOf("select count(*) as n from credit_ledger where operation = 'grade'")).toBe(written + 1);
  });
});
