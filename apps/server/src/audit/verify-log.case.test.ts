import { rmSync } from "node:fs";
import { formatCheckpoint, formatNote, utf8Bytes } from "@hcs/protocol";
import { sql } from "kysely";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { auditLeafHash, auditRecordOf } from "../services/audit.js";
import type { Store } from "../store/store.js";
import {
  alterAuditEvent,
  appendAuditRun,
  buildCheckpointedLog,
  swapAuditEvents,
} from "../test-support/audit-events.js";
import { sharedTestLogKey } from "../test-support/audit-log-keys.js";
import { forEachEngine, type OpenedStore } from "../test-support/store-engines.js";
import { generateLogKeyPem, logKeyFromPem, nodeEd25519Verify } from "./log-key.js";
import { type AuditLogProblemKind, verifyAuditLog } from "./verify-log.js";

const { dataDir: keyDir, verifier } = sharedTestLogKey();
const buildLog = (store: Store) => buildCheckpointedLog(store, keyDir);
const eventIdAt = async (store: Store, index: number) =>
  Number(
    (await store.db.selectFrom("audit_entries").select("id").where("leaf_index", "=", index).executeTakeFirstOrThrow())
      .id,
  );
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

/** The id of the event at a leaf index (a subquery). */
const eventAt = (index: number) => sql`(select id from audit_entries where leaf_index = ${index})`;

/** Rewrites the journal run that starts at leaf `firstIndex`. */
async function rewriteRun(
  store: Store,
  firstIndex: number,
  change: (r: { first_index: number; first_id: number; last_id: number; leaf_hashes: Buffer }) => object,
) {
  const run = await store.db
    .selectFrom("audit_sequence_runs")
    .selectAll()
    .where("first_index", "=", firstIndex)
    .executeTakeFirstOrThrow();
  const values = change({
    first_index: Number(run.first_index),
    first_id: Number(run.first_id),
    last_id: Number(run.last_id),
    leaf_hashes: Buffer.from(run.leaf_hashes!),
  });
  await store.db.updateTable("audit_sequence_runs").set(values).where("first_index", "=", firstIndex).execute();
}

// The log of buildCheckpointedLog: runs of the journal from leaves 0 (20 leaves), 20 (5), 25 (15) and 40 (5).
const TAMPERS: { name: string; kind: AuditLogProblemKind; index: number; tamper(store: Store): Promise<void> }[] = [
  {
    name: "one event's field altered",
    kind: "altered",
    index: 7,
    tamper: async (s) => {
      await alterAuditEvent(s, await eventIdAt(s, 7), { resource: "practice:1982615372" });
    },
  },
  {
    name: "one leaf's hash altered",
    kind: "altered",
    index: 3,
    tamper: (s) =>
      rewriteRun(s, 0, (r) => {
        r.leaf_hashes[3 * 32] = r.leaf_hashes[3 * 32]! ^ 0xff;
        return { leaf_hashes: r.leaf_hashes };
      }),
  },
  {
    name: "one event deleted",
    kind: "missing",
    index: 12,
    tamper: (s) => sql`delete from audit_events where id = ${eventAt(12)}`.execute(s.db).then(() => {}),
  },
  {
    name: "a run's leaves cut short",
    kind: "altered",
    index: 25,
    tamper: (s) => rewriteRun(s, 25, (r) => ({ leaf_hashes: r.leaf_hashes.subarray(0, 14 * 32) })),
  },
  {
    name: "a run's leaves erased",
    kind: "altered",
    index: 25,
    tamper: (s) => rewriteRun(s, 25, () => ({ leaf_hashes: null })),
  },
  {
    name: "a run's leaves overwritten with text",
    kind: "altered",
    index: 25,
    tamper: (s) => rewriteRun(s, 25, (r) => ({ leaf_hashes: r.leaf_hashes.toString("hex") })),
  },
  {
    name: "one event inserted (the runs after it renumbered)",
    kind: "moved",
    index: 20,
    async tamper(s) {
      for (const at of [40, 25, 20]) await rewriteRun(s, at, (r) => ({ first_index: r.first_index + 1 }));
      await appendAuditRun(s, 500, 1);
      const e = await s.db
        .selectFrom("audit_events")
        .selectAll()
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirstOrThrow();
      const leaf = Buffer.from(auditLeafHash(auditRecordOf({ ...e, status: Number(e.status) }, e.salt)), "hex");
      await s.db
        .insertInto("audit_sequence_runs")
        .values({ first_index: 20, first_id: e.id, last_id: e.id, leaf_hashes: leaf })
        .execute();
    },
  },
  {
    name: "two runs of events reordered",
    kind: "moved",
    index: 20,
    async tamper(s) {
      await rewriteRun(s, 20, () => ({ first_index: -1 }));
      await rewriteRun(s, 40, () => ({ first_index: 20 }));
      await rewriteRun(s, -1, () => ({ first_index: 40 }));
    },
  },
  {
    name: "two events' records swapped in place",
    kind: "altered",
    index: 9,
    async tamper(s) {
      await swapAuditEvents(s, await eventIdAt(s, 9), await eventIdAt(s, 30));
    },
  },
  {
    name: "an event after the split point altered",
    kind: "altered",
    index: 36,
    tamper: async (s) => {
      await alterAuditEvent(s, await eventIdAt(s, 36), { code: "forbidden" });
    },
  },
  {
    name: "the first event after the split point deleted",
    kind: "missing",
    index: 32,
    tamper: (s) => sql`delete from audit_events where id = ${eventAt(32)}`.execute(s.db).then(() => {}),
  },
  {
    name: "the log truncated",
    kind: "missing",
    index: 33,
    async tamper(s) {
      const ids = await s.db.selectFrom("audit_entries").select("id").where("leaf_index", ">=", 33).execute();
      await s.db
        .deleteFrom("audit_events")
        .where(
          "id",
          "in",
          ids.map((r) => r.id),
        )
        .execute();
    },
  },
  {
    name: "the journal truncated",
    kind: "missing",
    index: 25,
    tamper: (s) => sql`delete from audit_sequence_runs where first_index >= 25`.execute(s.db).then(() => {}),
  },
  {
    name: "a checkpoint rewritten to another head (signed by another key)",
    kind: "checkpoint_signature",
    index: 40,
    async tamper(s) {
      const forger = logKeyFromPem(generateLogKeyPem(), "hcs.test/audit", 0);
      const body = formatCheckpoint({
        origin: "hcs.test/audit",
        size: 40,
        rootHash: new Uint8Array(32),
        extensions: [],
      });
      const note = formatNote(body, [
        { name: forger.name, keyHash: forger.keyHash, signature: forger.sign(utf8Bytes(body)) },
      ]);
      await sql`update audit_checkpoints set note = ${note}, root_hash = ${"00".repeat(32)} where size = 40`.execute(
        s.db,
      );
    },
  },
  {
    name: "an event altered with its leaf hash recomputed (caught by the next signed head)",
    kind: "checkpoint_head",
    index: 20,
    async tamper(s) {
      const e = await s.db
        .selectFrom("audit_entries")
        .selectAll()
        .where("leaf_index", "=", 25)
        .executeTakeFirstOrThrow();
      const forged = { ...e, outcome: "denied", status: 403 };
      const leaf = auditLeafHash(auditRecordOf(forged, e.salt));
      await alterAuditEvent(s, Number(e.id), { outcome: "denied", status: 403 });
      await rewriteRun(s, 25, (r) => {
        Buffer.from(leaf, "hex").copy(r.leaf_hashes, 0);
        return { leaf_hashes: r.leaf_hashes };
      });
    },
  },
];

forEachEngine((engine, open) => {
  describe(`audit verify on ${engine}`, () => {
    // Each test's store is closed when the test ends: kept to the end, two dozen stores' connections (with the other
    // test files' running beside this one) exhausted PostgreSQL's 100.
    const opened: OpenedStore[] = [];
    afterEach(async () => {
      for (const o of opened.splice(0)) {
        await o.store.close();
        await o.cleanup();
      }
    });
    const fresh = async () => {
      const o = await open();
      opened.push(o);
      await buildLog(o.store);
      return o.store;
    };

    it("passes an untouched log: 45 leaves, two checkpoints", async () => {
      const store = await fresh();
      await appendAuditRun(store, 100, 2); // waiting for the sequencer: reported, not a problem
      const v = await verifyAuditLog(store, verifier, nodeEd25519Verify);
      expect(v).toMatchObject({ ok: true, leaves: 45, checkpoints: 2, unsequenced: 2, firstProblem: null });
    });

    // In one range, and (on SQLite) in pieces of two leaves shared by two threads — the first always the worker
    // thread's, the last this one's — so that every kind of tampering is also caught where the pieces' trees are
    // combined.
    const modes = engine === "sqlite" ? ([1, 2] as const) : ([1] as const);
    for (const threads of modes) {
      it(`passes an untouched log in ${threads} range(s)`, async () => {
        const store = await fresh();
        const v = await verifyAuditLog(store, verifier, nodeEd25519Verify, {
          threads,
          parallelFrom: 0,
          waitForWorker: true,
        });
        expect(v).toMatchObject({ ok: true, leaves: 45 });
        expect(v.rangesInWorkers > 0).toBe(threads > 1);
      });
      for (const t of TAMPERS) {
        it(`fails and names index ${t.index} when ${t.name} (${threads} range(s))`, async () => {
          const store = await fresh();
          await t.tamper(store);
          const v = await verifyAuditLog(store, verifier, nodeEd25519Verify, {
            threads,
            parallelFrom: 0,
            waitForWorker: true,
          });
          expect(v.ok).toBe(false);
          expect(v.firstProblem, JSON.stringify(v.problems)).toMatchObject({ kind: t.kind, index: t.index });
          expect(v.rangesInWorkers > 0).toBe(threads > 1);
        });
      }
    }
  });
});
