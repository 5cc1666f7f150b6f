import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { merkleRoot, RFC9162, toHex } from "@hcs/protocol";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { auditLeafHash, auditRecordJson, auditRecordOf } from "../services/audit.js";
import { openStore, type Store } from "../store/store.js";
import { appendAuditRun } from "../test-support/audit-events.js";
import { AuditSequencerLoop, PLANNED_BATCH, sequenceAuditLog, writePlannedRun } from "./sequencer.js";
import { planRun } from "./sequencer-run.js";

/** The embedded store's sequencer plans on a worker thread and writes on the serving thread (sequencer.ts). */
describe("the audit sequencer's planner thread (embedded store)", () => {
  const dirs: string[] = [];
  const stores: Store[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const fresh = async () => {
    const dir = mkdtempSync(join(tmpdir(), "hcs-planner-"));
    dirs.push(dir);
    const store = openStore({ engine: "sqlite", file: join(dir, "hcs.sqlite") });
    stores.push(store);
    await store.migrate();
    return store;
  };
  const leavesOf = (store: Store) => store.db.selectFrom("audit_entries").selectAll().orderBy("id").execute();

  it("sequences every waiting event, in id order, each record hashed into its leaf, over several runs", async () => {
    const store = await fresh();
    const count = PLANNED_BATCH * 2 + 37;
    await appendAuditRun(store, 0, count);
    const loop = new AuditSequencerLoop(store, pino({ level: "silent" }), 1000, true);
    await loop.tick();
    await loop.stop();
    const events = await leavesOf(store);
    expect(events.map((e) => e.leaf_index)).toEqual([...Array(count).keys()]);
    for (const e of events)
      expect(e.leaf_hash?.toString("hex")).toBe(
        auditLeafHash(auditRecordOf({ ...e, status: Number(e.status) }, e.salt)),
      );
    const state = await store.db.selectFrom("audit_log").selectAll().executeTakeFirstOrThrow();
    expect(Number(state.size)).toBe(count);
    expect(state.root_hash).toBe(
      toHex(
        merkleRoot(
          RFC9162,
          events.map((e) => e.leaf_hash!),
        ),
      ),
    );
    const journal = await store.db.selectFrom("audit_sequence_runs").selectAll().orderBy("first_index").execute();
    expect(journal.map((r) => Number(r.first_index))).toEqual([0, PLANNED_BATCH, PLANNED_BATCH * 2]);
  });

  it("drops a run planned from a state another run has moved on from: no event gets two leaves", async () => {
    const store = await fresh();
    await appendAuditRun(store, 0, 10);
    const state = await store.db.selectFrom("audit_log").selectAll().executeTakeFirstOrThrow();
    const events = await leavesOf(store);
    const stale = planRun(
      { size: Number(state.size), frontier: state.frontier, sequencedId: Number(state.sequenced_id) },
      events.map((e) => ({
        id: e.id,
        leafInput: `\0${auditRecordJson(auditRecordOf({ ...e, status: Number(e.status) }, e.salt))}`,
      })),
    );
    await sequenceAuditLog(store);
    expect(await writePlannedRun(store, stale)).toEqual({ sequenced: 0, size: null });
    const runs = await store.db.selectFrom("audit_sequence_runs").selectAll().execute();
    expect(runs.map((r) => [Number(r.first_index), r.leaf_hashes?.length])).toEqual([[0, 10 * 32]]);
  });

  it("keeps sequencing in this thread after stop (the server drains the log at shutdown)", async () => {
    const store = await fresh();
    const loop = new AuditSequencerLoop(store, pino({ level: "silent" }), 1000, true);
    await appendAuditRun(store, 0, 3);
    await loop.tick();
    await loop.stop();
    await appendAuditRun(store, 3, 2);
    await loop.tick();
    expect((await leavesOf(store)).map((e) => e.leaf_index)).toEqual([0, 1, 2, 3, 4]);
  });
});
