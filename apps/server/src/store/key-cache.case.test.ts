import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSecretBox } from "../secrets/master-key.js";
import { authenticateApiKey } from "../services/api-keys.js";
import type { ServiceDeps } from "../services/deps.js";
import { accountWithKey } from "../test-support/fixtures.js";
import { testDatabaseUrl } from "../test-support/postgres.js";
import { forEachEngine, type OpenedStore } from "../test-support/store-engines.js";
import { openStore, type Store } from "./store.js";

/** How long a change may take to reach the cache: immediate on SQLite, a notification's delivery on PostgreSQL. */
const PUSH_WITHIN_MS = 1_000;

async function outcome(deps: ServiceDeps, key: string): Promise<string> {
  try {
    const caller = await authenticateApiKey(deps, key);
    return `ok:${caller.plan}`;
  } catch (err) {
    return (err as { code: string }).code;
  }
}

/** Polls until `check` holds (PostgreSQL's notifications arrive asynchronously); returns the time it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return Date.now() - started;
}

forEachEngine((engine, open) => {
  describe(`key cache on ${engine}`, () => {
    let o: OpenedStore;
    let deps: ServiceDeps;
    /** A second connection, as the operator CLI or another server process has. */
    let other: Store;
    beforeAll(async () => {
      o = await open();
      await o.store.migrate();
      deps = { store: o.store, now: () => new Date(), secrets: createSecretBox(Buffer.alloc(32, 7)) };
      other = engine === "sqlite" ? openStore({ engine: "sqlite", file: o.store.file! }) : o.another();
    });
    afterAll(async () => {
      await other.close();
      await o.store.close();
      await o.cleanup();
    });

    /** Key lookups that reached the store (the join), counted through the hot statements. */
    const storeReads = () => {
      const spy = vi.spyOn(o.store.hot, "all");
      return {
        count: () => spy.mock.calls.filter(([, text]) => text.includes("from api_keys k join accounts")).length,
        restore: () => spy.mockRestore(),
      };
    };

    /**
     * Authenticates until the key is served from memory (on PostgreSQL once the listener is up) and stays there for
     * a quiet spell: the notifications of the test's own setup (the account and key it just created) arrive a few
     * milliseconds after their commits, and one arriving late empties the cache the test is about to measure.
     */
    const cached = async (key: string) => {
      await within(5_000, async () => {
        await authenticateApiKey(deps, key);
        const generation = o.store.keys.generation();
        const reads = storeReads();
        await authenticateApiKey(deps, key);
        if (engine === "postgres") await new Promise((r) => setTimeout(r, 100));
        await authenticateApiKey(deps, key);
        const n = reads.count();
        reads.restore();
        return n === 0 && o.store.keys.generation() === generation;
      });
    };

    it("reads a key from the store once, then from memory; a wrong secret is still refused", async () => {
      const a = await accountWithKey(deps, { plan: "professional" });
      await cached(a.apiKey);
      const reads = storeReads();
      for (let i = 0; i < 5; i++) expect(await outcome(deps, a.apiKey)).toBe("ok:professional");
      // The last character changed to another (a key ending in "x" made "…x" the same key: one CI run in ~62).
      const wrong = `${a.apiKey.slice(0, -1)}${a.apiKey.endsWith("x") ? "y" : "x"}`;
      expect(await outcome(deps, wrong)).toBe("invalid_credentials");
      expect(reads.count()).toBe(0);
      reads.restore();
    });

    it.skipIf(engine !== "sqlite")(
      "a key read beside an open write transaction is answered but not remembered (it may roll back)",
      async () => {
        const a = await accountWithKey(deps, { plan: "professional" });
        await cached(a.apiKey);
        const b = await accountWithKey(deps, { plan: "professional" });
        await new Promise((r) => setImmediate(r));
        // This turn's counter read, before the transaction below writes; b's row is read after it, on the same
        // connection: uncommitted.
        expect(await outcome(deps, a.apiKey)).toBe("ok:professional");
        await o.store.db
          .transaction()
          .execute(async (trx) => {
            await sql`update accounts set plan = 'free' where id = ${b.accountId}`.execute(trx);
            expect(await outcome(deps, b.apiKey)).toBe("ok:free");
            throw new Error("rolled back on purpose");
          })
          .catch((err: Error) => expect(err.message).toBe("rolled back on purpose"));
        await new Promise((r) => setImmediate(r));
        expect(await outcome(deps, b.apiKey)).toBe("ok:professional");
      },
    );

    it("unknown key ids are looked up every time, never remembered", async () => {
      const reads = storeReads();
      const guess = "hcs_live_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
      for (let i = 0; i < 3; i++) expect(await outcome(deps, guess)).toBe("invalid_credentials");
      expect(reads.count()).toBe(3);
      reads.restore();
    });

    const changes: [string, (keyId: string, accountId: string) => Promise<unknown>, string][] = [
      [
        "a revocation",
        (keyId) =>
          sql`update api_keys set revoked_at = ${new Date().toISOString()} where id = ${keyId}`.execute(other.db),
        "key_revoked",
      ],
      [
        "an expiry",
        (keyId) =>
          sql`update api_keys set expires_at = '2000-01-01T00:00:00.000Z' where id = ${keyId}`.execute(other.db),
        "invalid_credentials",
      ],
      [
        "a new secret",
        (keyId) => sql`update api_keys set secret_hash = ${"00".repeat(32)} where id = ${keyId}`.execute(other.db),
        "invalid_credentials",
      ],
      [
        "a plan change",
        (_k, accountId) => sql`update accounts set plan = 'free' where id = ${accountId}`.execute(other.db),
        "ok:free",
      ],
      [
        "a deleted key",
        (keyId) => sql`delete from api_keys where id = ${keyId}`.execute(other.db),
        "invalid_credentials",
      ],
    ];
    for (const [what, change, expected] of changes) {
      it(`${what} made through another connection reaches the next lookups`, async () => {
        const a = await accountWithKey(deps, { plan: "professional" });
        await cached(a.apiKey);
        await change(a.keyId, a.accountId);
        if (engine === "sqlite") {
          // Another process's change holds from the next event-loop turn on.
          await new Promise((r) => setImmediate(r));
          expect(await outcome(deps, a.apiKey)).toBe(expected);
        } else await within(PUSH_WITHIN_MS, async () => (await outcome(deps, a.apiKey)) === expected);
      });
    }

    it("a credit charge or a webhook secret rotation does not empty the cache", async () => {
      const a = await accountWithKey(deps, { plan: "professional" });
      await cached(a.apiKey);
      await sql`update accounts set credits = credits - 25 where id = ${a.accountId}`.execute(other.db);
      await sql`update accounts set webhook_secret_enc = webhook_secret_enc where id = ${a.accountId}`.execute(
        other.db,
      );
      await new Promise((r) => setTimeout(r, 50));
      const reads = storeReads();
      expect(await outcome(deps, a.apiKey)).toBe("ok:professional");
      expect(reads.count()).toBe(0);
      reads.restore();
    });

    it("a row read across a change is not remembered", async () => {
      const a = await accountWithKey(deps, { plan: "professional" });
      const generation = o.store.keys.generation();
      await sql`update accounts set tier = 'bulk' where id = ${a.accountId}`.execute(other.db);
      await within(PUSH_WITHIN_MS, async () => {
        await new Promise((r) => setImmediate(r));
        o.store.keys.get("key_x");
        return o.store.keys.generation() !== generation;
      });
      o.store.keys.remember(
        a.keyId,
        {
          secretHash: Buffer.alloc(32),
          revokedAt: null,
          expiresAt: null,
          accountId: a.accountId,
          plan: "free",
          tier: "standard",
        },
        generation,
      );
      expect(o.store.keys.get(a.keyId)).toBeUndefined();
    });

    const currentSchema = async () =>
      (await sql<{ s: string }>`select current_schema() as s`.execute(o.store.db)).rows[0]!.s;

    if (engine === "postgres") {
      it("a server whose DATABASE_URL sets the search path hears its own schema's changes", async () => {
        const database = (await sql<{ d: string }>`select current_database() as d`.execute(o.store.db)).rows[0]!.d;
        const url = new URL(testDatabaseUrl(database));
        url.searchParams.set("options", `-c search_path=${await currentSchema()}`);
        const byUrl = openStore({ engine: "postgres", url: url.toString() });
        try {
          const d = { ...deps, store: byUrl };
          const a = await accountWithKey(d, { plan: "professional" });
          await within(5_000, async () => {
            await authenticateApiKey(d, a.apiKey);
            return byUrl.keys.get(a.keyId) !== undefined;
          });
          await sql`update api_keys set revoked_at = ${new Date().toISOString()} where id = ${a.keyId}`.execute(
            other.db,
          );
          await within(PUSH_WITHIN_MS, async () => (await outcome(d, a.apiKey)) === "key_revoked");
        } finally {
          await byUrl.close();
        }
      });

      it("serves nothing from memory while its listening connection is down, and resumes once reconnected", async () => {
        const a = await accountWithKey(deps, { plan: "professional" });
        await cached(a.apiKey);
        await sql`select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = ${"hcs-server change listener (" + (await currentSchema()) + ")"}`.execute(other.db);
        await within(2_000, async () => o.store.keys.get(a.keyId) === undefined);
        await sql`update api_keys set revoked_at = ${new Date().toISOString()} where id = ${a.keyId}`.execute(other.db);
        expect(await outcome(deps, a.apiKey)).toBe("key_revoked");
        const b = await accountWithKey(deps, { plan: "enterprise" });
        await cached(b.apiKey);
        expect(await outcome(deps, a.apiKey)).toBe("key_revoked");
      });
    }
  });
});
