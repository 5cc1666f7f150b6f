import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { auditLeafHash, auditRecordOf, newAuditSalt } from "../../services/audit.js";
import { auditEvent } from "../../test-support/audit-events.js";
import { forEachEngine, type OpenedStore } from "../../test-support/store-engines.js";

/**
 * A store sequenced the way it was before migration 018 (each event's index in audit_events.leaf_index) keeps every
 * leaf, context row and index across the migration.
 */
forEachEngine((engine, open) => {
  describe(`migration 018 (audit leaves) on ${engine}`, () => {
    const opened: OpenedStore[] = [];
    afterAll(async () => {
      for (const o of opened) {
        await o.store.close();
        await o.cleanup();
      }
    });

    it("moves the leaf hashes of sequenced events into their runs and keeps indexes and context rows", async () => {
      const o = await open();
      opened.push(o);
      const { store } = o;
      await store.migrate("014-audit-append-cost");
      // Five events as the request path wrote them before 018: hashed at append, with their context rows.
      for (let n = 0; n < 5; n++) {
        const e = auditEvent(n);
        const salt = newAuditSalt();
        const leaf = auditLeafHash(auditRecordOf(e, salt));
        const { rows } = await sql<{ id: number | string }>`insert into audit_events (at, request_id, actor_key_id,
          actor_account_id, action, transport, resource, outcome, status, code, salt, leaf_hash)
          values (${e.at}, ${e.request_id}, ${e.actor_key_id}, ${e.actor_account_id}, ${e.action}, ${e.transport},
            ${e.resource}, ${e.outcome}, ${e.status}, ${e.code}, ${salt}, ${leaf}) returning id`.execute(store.db);
        await sql`insert into audit_context (event_id, at, client_ip, duration_ms)
          values (${rows[0]!.id}, ${e.at}, ${e.client_ip}, ${e.duration_ms})`.execute(store.db);
      }
      // The old sequencer's work on the first four events: index = id - first id.
      const ids = (
        await sql<{ id: number | string }>`select id from audit_events order by id`.execute(store.db)
      ).rows.map((r) => Number(r.id));
      const first = ids[0]!;
      await sql`update audit_events set leaf_index = id - ${first} where id <= ${ids[3]!}`.execute(store.db);
      // … in two runs, as its journal recorded them.
      await sql`insert into audit_sequence_runs (first_index, first_id, last_id)
        values (0, ${first}, ${first + 1}), (2, ${first + 2}, ${first + 3})`.execute(store.db);
      const before = (
        await sql<{
          id: number | string;
          leaf_hash: string;
        }>`select id, leaf_hash from audit_events order by id`.execute(store.db)
      ).rows;

      await store.migrate();

      const runs = await store.db.selectFrom("audit_sequence_runs").selectAll().orderBy("first_index").execute();
      expect(runs.map((r) => r.leaf_hashes?.toString("hex"))).toEqual([
        before[0]!.leaf_hash + before[1]!.leaf_hash,
        before[2]!.leaf_hash + before[3]!.leaf_hash,
      ]);
      const entries = await store.db.selectFrom("audit_entries").selectAll().orderBy("id").execute();
      expect(entries.map((e) => (e.leaf_index === null ? null : Number(e.leaf_index)))).toEqual([0, 1, 2, 3, null]);
      expect(entries.map((e) => e.leaf_hash?.toString("hex") ?? null)).toEqual([
        ...before.slice(0, 4).map((e) => e.leaf_hash),
        null,
      ]);
      const trail = await store.db.selectFrom("audit_trail").select(["id", "client_ip", "leaf_index"]).execute();
      expect(trail).toHaveLength(5);
      expect(trail.every((t) => t.client_ip === "127.0.0.1")).toBe(true);
      const marks = await sql<{ n: number | string }>`select count(*) as n from audit_events
        where leaf_index is not null`.execute(store.db);
      // SQLite keeps no mark (its sequencer finds waiting events by id); PostgreSQL's sequencer still reads it.
      expect(Number(marks.rows[0]!.n)).toBe(engine === "sqlite" ? 0 : 4);
    });
  });
});
