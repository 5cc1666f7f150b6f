import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { sequenceAuditLog } from "../../audit/sequencer.js";
import { appendAuditEvents, auditLeafHash, auditRecordOf } from "../../services/audit.js";
import { auditEvent } from "../../test-support/audit-events.js";
import { openStore } from "../store.js";

/**
 * Migration 025 (SQLite only): the record's text moves to audit_records, audit_events becomes a view reading the
 * fields from it. Events written under 024 keep ids, fields and leaves; the id sequence goes on past a deleted last
 * event; the fields still cannot be changed apart from the text; deleting through the view deletes the record. (Its
 * evidence index gave way to a table in 026: 026-audit-append-indexes.test.ts.)
 */
describe("migration 025 (audit_records, audit_events a view) on sqlite", () => {
  it("keeps every event written under 024 and what 024 promised", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hcs-025-"));
    const store = openStore({ engine: "sqlite", file: join(dir, "test.sqlite") });
    try {
      await store.migrate("024-audit-record-text");
      // Written as 024's writers wrote: the fields into audit_event_input (its trigger builds the text).
      const salts: string[] = [];
      for (let n = 0; n < 5; n++) {
        const {
          client_ip: _ip,
          duration_ms: _ms,
          ...fields
        } = {
          ...auditEvent(n),
          resource: n === 2 ? 'scan:quote " \\ \u2603' : "practice:1234567893",
          action: n === 2 ? "uploadScanResults" : "hipaa.grade",
        };
        salts.push(`${String(n).padStart(32, "0")}`);
        await store.db
          .insertInto("audit_event_input")
          .values({ ...fields, actor_operator: n === 1 ? "user:alice" : null, salt: salts[n]! })
          .execute();
      }
      const before = await sql<{ id: number; record: string }>`select id, record from audit_events order by id`.execute(
        store.db,
      );
      await sql`delete from audit_events where id = ${before.rows.at(-1)!.id}`.execute(store.db);

      await store.migrate("025-audit-records-table");

      const tables = await sql<{ name: string; type: string }>`select name, type from sqlite_master
        where name in ('audit_events', 'audit_records')`.execute(store.db);
      expect(Object.fromEntries(tables.rows.map((r) => [r.name, r.type]))).toEqual({
        audit_events: "view",
        audit_records: "table",
      });
      // Same ids and text, fields read through the view with their types.
      const kept = before.rows.slice(0, -1);
      const after = await store.db.selectFrom("audit_events").selectAll().orderBy("id").execute();
      expect(after.map((e) => [Number(e.id), (e as unknown as { record: string }).record])).toEqual(
        kept.map((e) => [e.id, e.record]),
      );
      expect(after[1]!.actor_operator).toBe("user:alice");
      expect(after[2]!.resource).toBe('scan:quote " \\ \u2603');
      expect(after.map((e) => e.status)).toEqual([200, 200, 200, 200]);

      // Leaves as JavaScript hashes the records.
      await sequenceAuditLog(store);
      const entries = await store.db.selectFrom("audit_entries").selectAll().orderBy("id").execute();
      expect(entries.map((e) => e.leaf_hash?.toString("hex"))).toEqual(
        entries.map((e) => auditLeafHash(auditRecordOf({ ...e, client_ip: "", duration_ms: 0 } as never, e.salt))),
      );

      // The hot path's insert takes the next id, past the deleted one.
      await store.writes.run((trx) => appendAuditEvents(store.hot, trx, [auditEvent(9)]));
      const last = await store.db.selectFrom("audit_events").select("id").orderBy("id", "desc").executeTakeFirst();
      expect(Number(last!.id)).toBe(before.rows.at(-1)!.id + 1);

      // A record without a field every v1 record has is refused by either writer, as 024's NOT NULL columns did.
      const count = async () =>
        Number((await sql<{ n: number }>`select count(*) as n from audit_records`.execute(store.db)).rows[0]!.n);
      const stored = await count();
      await expect(
        store.writes.run((trx) =>
          appendAuditEvents(store.hot, trx, [{ ...auditEvent(10), request_id: null as unknown as string }]),
        ),
      ).rejects.toMatchObject({ code: "HCS_AUDIT_RECORD_INCOMPLETE", message: "audit record without request_id" });
      const { client_ip: _ip, duration_ms: _ms, ...input } = auditEvent(11);
      await expect(
        store.db
          .insertInto("audit_event_input")
          .values({ ...input, action: null as unknown as string, actor_operator: null, salt: "00" })
          .execute(),
      ).rejects.toThrow(/audit record without time, request_id, action/);
      expect(await count()).toBe(stored);

      // Fields cannot be changed apart from the hashed text; a delete through the view deletes the record.
      await expect(sql`update audit_events set action = 'hipaa.sra'`.execute(store.db)).rejects.toThrow(/view/);
      await sql`delete from audit_events where id = ${kept[0]!.id}`.execute(store.db);
      const left = await sql<{ n: number }>`select count(*) as n from audit_records where id = ${kept[0]!.id}`.execute(
        store.db,
      );
      expect(left.rows[0]!.n).toBe(0);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
