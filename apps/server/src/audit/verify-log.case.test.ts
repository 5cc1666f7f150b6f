import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatCheckpoint, formatNote, parseVerifierKey, utf8Bytes } from "@hcs/protocol";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { auditLeafHash, auditRecordOf } from "../services/audit.js";
import type { Store } from "../store/store.js";
import { appendAuditRun, buildCheckpointedLog } from "../test-support/audit-events.js";
import { forEachEngine, type OpenedStore } from "../test-support/store-engines.js";
import { loadLogKey, nodeEd25519Verify } from "./log-key.js";
import { type AuditLogProblemKind, verifyAuditLog } from "./verify-log.js";

const keyDir = mkdtempSync(join(tmpdir(), "hcs-verify-key-"));
const key = loadLogKey(keyDir, "hcs.test/audit");
const verifier = parseVerifierKey(key.verifierKey)!;
const buildLog = (store: Store) => buildCheckpointedLog(store, key);
const eventIdAt = async (store: Store, index: number) =>
  Number(
    (
      await store.db
        .selectFrom("audit_leaves")
        .select("event_id")
        .where("leaf_index", "=", index)
        .executeTakeFirstOrThrow()
    ).event_id,
  );
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

/** Moves leaf indexes ≥ from by delta without tripping the primary key mid-statement. */
async function shiftIndexes(store: Store, from: number, delta: number) {
  await sql`update audit_leaves set leaf_index = leaf_index + 1000000 where leaf_index >= ${from}`.execute(store.db);
  await sql`update audit_leaves set leaf_index = leaf_index - 1000000 + ${delta} where leaf_index >= ${1000000 + from}`.execute(
    store.db,
  );
}

/** The id of the event at a leaf index (a subquery). */
const eventAt = (index: number) => sql`(select event_id from audit_leaves where leaf_index = ${index})`;

const TAMPERS: { name: string; kind: AuditLogProblemKind; index: number; tamper(store: Store): Promise<void> }[] = [
  {
    name: "one event's field altered",
    kind: "altered",
    index: 7,
    tamper: (s) =>
      sql`update audit_events set resource = 'practice:1982615372' where id = ${eventAt(7)}`
        .execute(s.db)
        .then(() => {}),
  },
  {
    name: "one leaf's hash altered",
    kind: "altered",
    index: 3,
    tamper: (s) =>
      sql`update audit_leaves set leaf_hash = ${Buffer.alloc(32, 0xab)} where leaf_index = 3`
        .execute(s.db)
        .then(() => {}),
  },
  {
    name: "one event deleted",
    kind: "missing",
    index: 12,
    tamper: (s) => sql`delete from audit_events where id = ${eventAt(12)}`.execute(s.db).then(() => {}),
  },
  {
    name: "one event and its leaf deleted and the indexes after it renumbered",
    kind: "moved",
    index: 12,
    async tamper(s) {
      await sql`delete from audit_events where id = ${eventAt(12)}`.execute(s.db);
      await sql`delete from audit_leaves where leaf_index = 12`.execute(s.db);
      await shiftIndexes(s, 13, -1);
    },
  },
  {
    name: "one event inserted (indexes after it renumbered)",
    kind: "moved",
    index: 15,
    async tamper(s) {
      await shiftIndexes(s, 15, 1);
      await appendAuditRun(s, 500, 1);
      const e = await s.db
        .selectFrom("audit_events")
        .selectAll()
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirstOrThrow();
      const leaf = Buffer.from(auditLeafHash(auditRecordOf({ ...e, status: Number(e.status) }, e.salt)), "hex");
      await s.db.insertInto("audit_leaves").values({ leaf_index: 15, event_id: e.id, leaf_hash: leaf }).execute();
    },
  },
  {
    name: "two events reordered",
    kind: "moved",
    index: 9,
    async tamper(s) {
      const [a, b] = [await eventIdAt(s, 9), await eventIdAt(s, 30)];
      await sql`update audit_leaves set event_id = -1 where leaf_index = 9`.execute(s.db);
      await sql`update audit_leaves set event_id = ${a} where leaf_index = 30`.execute(s.db);
      await sql`update audit_leaves set event_id = ${b} where leaf_index = 9`.execute(s.db);
    },
  },
  {
    name: "two events' records swapped in place",
    kind: "altered",
    index: 9,
    async tamper(s) {
      const [a, b] = [await eventIdAt(s, 9), await eventIdAt(s, 30)];
      const ra = await s.db.selectFrom("audit_events").selectAll().where("id", "=", a).executeTakeFirstOrThrow();
      const rb = await s.db.selectFrom("audit_events").selectAll().where("id", "=", b).executeTakeFirstOrThrow();
      const { id: _a, leaf_index: _ia, ...va } = ra;
      const { id: _b, leaf_index: _ib, ...vb } = rb;
      await s.db.updateTable("audit_events").set(vb).where("id", "=", a).execute();
      await s.db.updateTable("audit_events").set(va).where("id", "=", b).execute();
    },
  },
  {
    name: "an event after the split point altered",
    kind: "altered",
    index: 36,
    tamper: (s) =>
      sql`update audit_events set code = 'forbidden' where id = ${eventAt(36)}`.execute(s.db).then(() => {}),
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
    tamper: (s) => sql`delete from audit_leaves where leaf_index >= 33`.execute(s.db).then(() => {}),
  },
  {
    name: "a checkpoint rewritten to another head (signed by another key)",
    kind: "checkpoint_signature",
    index: 40,
    async tamper(s) {
      const forger = loadLogKey(mkdtempSync(join(tmpdir(), "hcs-forger-")), "hcs.test/audit");
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
      await sql`update audit_events set outcome = 'denied', status = 403 where id = ${e.id}`.execute(s.db);
      await sql`update audit_leaves set leaf_hash = ${Buffer.from(leaf, "hex")} where leaf_index = 25`.execute(s.db);
    },
  },
];

forEachEngine((engine, open) => {
  describe(`audit verify on ${engine}`, () => {
    const opened: OpenedStore[] = [];
    afterAll(async () => {
      for (const o of opened) {
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

    // In one range, and (on SQLite) in two at once — leaves 0–31 in a worker thread, 32–44 here — so that every
    // kind of tampering is also caught where the two ranges' trees are combined.
    const modes = engine === "sqlite" ? ([1, 2] as const) : ([1] as const);
    for (const threads of modes) {
      it(`passes an untouched log in ${threads} range(s)`, async () => {
        const store = await fresh();
        const v = await verifyAuditLog(store, verifier, nodeEd25519Verify, { threads, parallelFrom: 0 });
        expect(v).toMatchObject({ ok: true, leaves: 45, rangesInWorkers: threads - 1 });
      });
      for (const t of TAMPERS) {
        it(`fails and names index ${t.index} when ${t.name} (${threads} range(s))`, async () => {
          const store = await fresh();
          await t.tamper(store);
          const v = await verifyAuditLog(store, verifier, nodeEd25519Verify, { threads, parallelFrom: 0 });
          expect(v.ok).toBe(false);
          expect(v.firstProblem, JSON.stringify(v.problems)).toMatchObject({ kind: t.kind, index: t.index });
          expect(v.rangesInWorkers).toBe(threads - 1);
        });
      }
    }
  });
});
