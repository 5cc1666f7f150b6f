import { MerkleFrontier, merkleRoot, RFC9162, toHex } from "@hcs/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { auditLeafHash, auditRecordOf } from "../services/audit.js";
import type { Store } from "../store/store.js";
import { appendAuditRun } from "../test-support/audit-events.js";
import { forEachEngine, type OpenedStore } from "../test-support/store-engines.js";
import { sequenceAuditLog } from "./sequencer.js";
import { consecutiveRuns } from "./sequencer-run.js";

/** The log as stored: leaf hashes in leaf-index order, the state row, and the events still waiting. */
async function logOf(store: Store) {
  const rows = await store.db.selectFrom("audit_entries").selectAll().orderBy("leaf_index").execute();
  const sequenced = rows.filter((r) => r.leaf_index !== null);
  const state = await store.db.selectFrom("audit_log").selectAll().executeTakeFirstOrThrow();
  // Each leaf is its record's RFC 9162 leaf hash: the sequencer hashed the record as stored.
  for (const r of sequenced)
    expect(r.leaf_hash?.toString("hex")).toBe(auditLeafHash(auditRecordOf({ ...r, status: Number(r.status) }, r.salt)));
  return {
    indexes: sequenced.map((r) => Number(r.leaf_index)),
    leaves: sequenced.map((r) => r.leaf_hash!),
    ids: sequenced.map((r) => Number(r.id)),
    waiting: rows.length - sequenced.length,
    state: { ...state, size: Number(state.size) },
  };
}

describe("consecutiveRuns", () => {
  it("splits ascending ids where they jump, keeping each run's position", () => {
    expect(consecutiveRuns([])).toEqual([]);
    expect(consecutiveRuns([4, 5, 6, 9, 10, 12])).toEqual([
      { first: 4, last: 6, at: 0 },
      { first: 9, last: 10, at: 3 },
      { first: 12, last: 12, at: 5 },
    ]);
  });
});

forEachEngine((engine, open) => {
  describe(`audit sequencer on ${engine}`, () => {
    const opened: OpenedStore[] = [];
    const others: Store[] = [];
    const fresh = async () => {
      const o = await open();
      opened.push(o);
      await o.store.migrate();
      return o;
    };
    afterAll(async () => {
      for (const s of others) await s.close();
      for (const o of opened) {
        await o.store.close();
        await o.cleanup();
      }
    });

    it("starts from the empty tree and gives waiting events the next indexes, in id order, batch after batch", async () => {
      const { store } = await fresh();
      expect((await logOf(store)).state).toMatchObject({
        size: 0,
        root_hash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      });
      expect(await sequenceAuditLog(store)).toEqual({ sequenced: 0, size: 0 });

      await appendAuditRun(store, 0, 7);
      expect(await sequenceAuditLog(store, 5)).toEqual({ sequenced: 5, size: 5 });
      expect(await sequenceAuditLog(store, 5)).toEqual({ sequenced: 2, size: 7 });
      await appendAuditRun(store, 7, 3);
      expect(await sequenceAuditLog(store)).toEqual({ sequenced: 3, size: 10 });

      const log = await logOf(store);
      expect(log.indexes).toEqual([...Array(10).keys()]);
      expect(log.ids).toEqual([...log.ids].sort((a, b) => a - b));
      expect(log.waiting).toBe(0);
      expect(log.state.size).toBe(10);
      expect(log.state.root_hash).toBe(toHex(merkleRoot(RFC9162, log.leaves)));
      // The stored frontier continues the same tree.
      const frontier = MerkleFrontier.restore(RFC9162, JSON.parse(log.state.frontier));
      expect(toHex(frontier.root())).toBe(log.state.root_hash);
    });

    it("keeps the log gap-free and consistent with two processes writing and sequencing at once", async () => {
      const { store, another } = await fresh();
      const second = another();
      if (second !== store) others.push(second);
      const writers = [store, second].flatMap((s, w) =>
        Array.from({ length: 10 }, (_, k) => appendAuditRun(s, 1000 * w + 50 * k, 1 + ((k * 7) % 13))),
      );
      const sequencers = Array.from({ length: 12 }, (_, k) => sequenceAuditLog(k % 2 ? second : store, 17));
      const results = await Promise.all([...writers, ...sequencers]);
      expect(results.length).toBe(32);
      // Drain what arrived after the last run.
      while ((await sequenceAuditLog(store)).sequenced > 0);

      const log = await logOf(store);
      const total = [...Array(10).keys()].reduce((n, k) => n + 1 + ((k * 7) % 13), 0) * 2;
      expect(log.waiting).toBe(0);
      expect(log.indexes).toEqual([...Array(total).keys()]);
      expect(log.state.size).toBe(total);
      expect(log.state.root_hash).toBe(toHex(merkleRoot(RFC9162, log.leaves)));
    });
  });
});
