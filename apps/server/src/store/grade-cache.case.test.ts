import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withNpiCheckDigit } from "@hcs/protocol";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSecretBox } from "../secrets/master-key.js";
import type { ServiceDeps } from "../services/deps.js";
import { gradeJsonForNpi } from "../services/grades.js";
import { accountWithKey, DMARC_MISSING, externalAssessment, gradedPractice } from "../test-support/fixtures.js";
import { forEachEngine, type OpenedStore } from "../test-support/store-engines.js";
import { openStore, type Store } from "./store.js";

/** The next event-loop turn: on SQLite the grade cache reads its counter at the first lookup of each turn. */
const nextTurn = () => new Promise((r) => setImmediate(r));

/** Polls until `check` holds (PostgreSQL's notifications arrive a few milliseconds after the commit). */
async function within(ms: number, check: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

forEachEngine((engine, open) => {
  describe(`grade cache on ${engine}`, () => {
    let o: OpenedStore;
    let store: Store;
    /** A second connection, as the operator CLI or another server process has. */
    let other: Store;
    let deps: ServiceDeps;
    let otherDeps: ServiceDeps;
    let accountId: string;
    beforeAll(async () => {
      o = await open();
      store = o.store;
      await store.migrate();
      other = engine === "sqlite" ? openStore({ engine: "sqlite", file: store.file! }) : o.another();
      const secrets = createSecretBox(Buffer.alloc(32, 7));
      deps = { store, now: () => new Date(), secrets };
      otherDeps = { store: other, now: () => new Date(), secrets };
      accountId = (await accountWithKey(deps, { plan: "professional" })).accountId;
    });
    afterAll(async () => {
      await other.close();
      await store.close();
      await o.cleanup();
    });

    /** Grade rows read from the store (the lookup's query), counted through the hot statements. */
    const storeReads = () => {
      const spy = vi.spyOn(store.hot, "all");
      return {
        count: () => spy.mock.calls.filter(([, text]) => text.includes("from practices p left join grades g")).length,
        restore: () => spy.mockRestore(),
      };
    };
    const lookup = async (npi: string) => JSON.parse(await gradeJsonForNpi(deps, npi)) as Record<string, unknown>;

    /**
     * Looks the practice up until it is served from memory for a quiet spell: on PostgreSQL the notifications of the
     * test's own setup arrive a few milliseconds after their commits, and one arriving late empties the cache.
     */
    const cached = async (npi: string) => {
      await within(5_000, async () => {
        await nextTurn();
        await lookup(npi);
        const reads = storeReads();
        await nextTurn();
        await lookup(npi);
        if (engine === "postgres") await new Promise((r) => setTimeout(r, 100));
        await nextTurn();
        await lookup(npi);
        const n = reads.count();
        reads.restore();
        return n === 0;
      });
    };

    /** After another connection's change: the next turn's lookup on SQLite, a notification's delivery on PostgreSQL. */
    const eventually = async (check: () => Promise<boolean>) => {
      if (engine === "sqlite") {
        await nextTurn();
        expect(await check()).toBe(true);
      } else await within(1_000, check);
    };

    it("reads a practice's grade once, then from memory, until another connection stores a new grade", async () => {
      const npi = "1234567893";
      await gradedPractice(deps, accountId, npi);
      await cached(npi);
      const first = await lookup(npi);
      const reads = storeReads();
      try {
        for (let i = 0; i < 3; i++) {
          await nextTurn();
          expect(await lookup(npi)).toEqual(first);
        }
        expect(reads.count()).toBe(0);
        // Another process stores a worse grade: the lookups read it.
        await externalAssessment(otherDeps, npi, [DMARC_MISSING]);
        await eventually(
          async () => ((await lookup(npi)).compliance_score as number) < (first.compliance_score as number),
        );
        expect(reads.count()).toBeGreaterThan(0);
      } finally {
        reads.restore();
      }
      await cached(npi);
    });

    it("a practice renamed, or its grades deleted, by another connection is read again", async () => {
      const npi = withNpiCheckDigit("777000001");
      await gradedPractice(deps, accountId, npi);
      await cached(npi);
      // The answer is the stored record, which names the practice as it was graded: what shows the rename reached
      // the cache is that the lookup reads the store again.
      const reads = storeReads();
      try {
        await sql`update practices set name = 'Renamed Clinic' where npi = ${npi}`.execute(other.db);
        await eventually(async () => {
          await nextTurn();
          await lookup(npi);
          return reads.count() > 0;
        });
      } finally {
        reads.restore();
      }
      await cached(npi);
      const before = await lookup(npi);
      // Without a stored grade the lookup computes one from the findings, and names the practice as it is now.
      await sql`delete from grades where npi = ${npi}`.execute(other.db);
      await eventually(async () => (await lookup(npi)).practice_name !== before.practice_name);
      expect((await lookup(npi)).practice_name).toBe("Renamed Clinic");
    });

    it.skipIf(engine !== "sqlite")(
      "a row read beside an open write transaction is answered but not remembered (it may roll back)",
      async () => {
        const npi = withNpiCheckDigit("777000004");
        await gradedPractice(deps, accountId, npi);
        await nextTurn();
        const committed = await lookup(npi);
        // Another connection's change empties the cache; the lookup below reads the counter before the transaction
        // writes (the same turn), and the practice's row after (the next one), on the one connection: uncommitted.
        await externalAssessment(otherDeps, "1234567893", []);
        await nextTurn();
        const during = lookup(npi);
        await store.db
          .transaction()
          .execute(async (trx) => {
            const changed = JSON.stringify({ ...committed, compliance_score: 1 });
            await sql`update grades set record = ${changed} where id = (select max(id) from grades where npi = ${npi})`.execute(
              trx,
            );
            expect((await during).compliance_score).toBe(1);
            throw new Error("rolled back on purpose");
          })
          .catch((err: Error) => expect(err.message).toBe("rolled back on purpose"));
        await nextTurn();
        expect(await lookup(npi)).toEqual(committed);
      },
    );

    it("a practice that was not found is not remembered: once added elsewhere, the next lookup finds it", async () => {
      const npi = withNpiCheckDigit("777000002");
      await expect(gradeJsonForNpi(deps, npi)).rejects.toMatchObject({ code: "npi_not_found" });
      await nextTurn();
      // Adding a practice fires no trigger (nothing about it can be cached).
      await gradedPractice(otherDeps, accountId, npi);
      await nextTurn();
      expect((await lookup(npi)).npi).toBe(npi);
    });
  });
});

describe("grade cache (SQLite) before migration 027", () => {
  it("serves nothing from memory while the store has no counter", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hcs-grade-cache-"));
    const old = openStore({ engine: "sqlite", file: join(dir, "old.sqlite") });
    try {
      await old.migrate("026-audit-append-indexes");
      const deps: ServiceDeps = { store: old, now: () => new Date(), secrets: createSecretBox(Buffer.alloc(32, 7)) };
      const a = await accountWithKey(deps, { plan: "professional" });
      const npi = withNpiCheckDigit("777000003");
      // Registered as the schema of that time has it (no claims before migration 032), then assessed.
      await old.db
        .insertInto("practices")
        .values({
          npi,
          account_id: a.accountId,
          name: `Practice ${npi}`,
          domain: `p${npi}.example`,
          website: null,
          created_at: new Date().toISOString(),
          state: null,
        })
        .execute();
      await externalAssessment(deps, npi);
      await gradeJsonForNpi(deps, npi);
      await nextTurn();
      expect(old.grades.get(npi)).toBeUndefined();
    } finally {
      await old.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
