import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { sequenceAuditLog } from "../../audit/sequencer.js";
import { auditLeafHash, auditRecordOf, newAuditSalt } from "../../services/audit.js";
import { auditEvent } from "../../test-support/audit-events.js";
import { forEachEngine } from "../../test-support/store-engines.js";

/**
 * Events written before migration 024 (their fields as columns) keep their ids, fields, context and — once sequenced —
 * the leaves JavaScript hashes for them; on SQLite the record's text becomes what is stored and its fields cannot be
 * changed apart from it.
 */
forEachEngine((engine, open) => {
  describe(`migration 024 (the audit record's text) on ${engine}`, () => {
    it("keeps every event, its id and its leaf, and the id sequence past a deleted last event", async () => {
      const { store, cleanup } = await open();
      try {
        await store.migrate("023-settle-group");
        // Events as every writer stored them before 024, with values that test the text's escaping.
        const odd = ["Zoë \u2603 \u{1F600}", 'quote " and \\ backslash', "tab\tnewline\n\u0001", null];
        const expected: { id: number; leaf: string; resource: string | null; operator: string | null }[] = [];
        for (let n = 0; n < 6; n++) {
          const e = {
            ...auditEvent(n),
            resource: odd[n % odd.length]!,
            actor_operator: n % 2 === 0 ? null : `user:${odd[n % 3]}`,
            code: n === 3 ? "insufficient_credits" : null,
            status: n === 3 ? 402 : 200,
            outcome: n === 3 ? ("denied" as const) : ("success" as const),
          };
          const salt = newAuditSalt();
          const { rows } = await sql<{ id: number | string }>`insert into audit_events (at, request_id, actor_key_id,
            actor_account_id, actor_operator, action, transport, resource, outcome, status, code, salt)
            values (${e.at}, ${e.request_id}, ${e.actor_key_id}, ${e.actor_account_id}, ${e.actor_operator},
              ${e.action}, ${e.transport}, ${e.resource}, ${e.outcome}, ${e.status}, ${e.code}, ${salt})
            returning id`.execute(store.db);
          const id = Number(rows[0]!.id);
          await sql`insert into audit_context (event_id, at, client_ip, duration_ms)
            values (${id}, ${e.at}, ${e.client_ip}, ${e.duration_ms})`.execute(store.db);
          expected.push({
            id,
            leaf: auditLeafHash(auditRecordOf(e, salt)),
            resource: e.resource,
            operator: e.actor_operator,
          });
        }
        // The last event deleted: its id must not be handed out again.
        const gone = expected.pop()!;
        await sql`delete from audit_events where id = ${gone.id}`.execute(store.db);

        await store.migrate();
        await sequenceAuditLog(store);

        const entries = await store.db.selectFrom("audit_entries").selectAll().orderBy("id").execute();
        expect(entries.map((e) => Number(e.id))).toEqual(expected.map((e) => e.id));
        expect(entries.map((e) => e.leaf_hash?.toString("hex"))).toEqual(expected.map((e) => e.leaf));
        expect(entries.map((e) => e.resource)).toEqual(expected.map((e) => e.resource));
        expect(entries.map((e) => e.actor_operator)).toEqual(expected.map((e) => e.operator));
        expect(entries.map((e) => Number(e.status))).toEqual([200, 200, 200, 402, 200]);
        const trail = await store.db.selectFrom("audit_trail").select(["id", "client_ip"]).execute();
        expect(trail.map((t) => t.client_ip)).toEqual(expected.map(() => "127.0.0.1"));

        // A new event takes an id past the deleted one.
        const { client_ip: _ip, duration_ms: _ms, ...fields } = auditEvent(9);
        await store.db
          .insertInto("audit_event_input")
          .values({ ...fields, actor_operator: null, salt: newAuditSalt() })
          .execute();
        const last = await store.db.selectFrom("audit_events").select("id").orderBy("id", "desc").executeTakeFirst();
        expect(Number(last!.id)).toBe(gone.id + 1);

        if (engine === "sqlite") {
          // The fields are read from the hashed text: none can be changed apart from it (since migration 025 they
          // are a view's columns; 024 made them generated columns).
          await expect(sql`update audit_events set action = 'hipaa.sra'`.execute(store.db)).rejects.toThrow(
            /cannot modify audit_events because it is a view/,
          );
          // The evidence index and its use: 025-audit-records-table.test.ts.
        }
      } finally {
        await store.close();
        await cleanup();
      }
    });
  });
});
