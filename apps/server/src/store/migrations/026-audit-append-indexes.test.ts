import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { loggingEvents, loggingEventsQuery } from "../../audit/evidence.js";
import { type AuditEvent, appendAuditEvents } from "../../services/audit.js";
import { auditEvent } from "../../test-support/audit-events.js";
import { openStore, type Store } from "../store.js";

/**
 * Migration 026 (SQLite only): the evidence index and audit_context(at) go; the evidence events are filed in
 * audit_evidence — those logged before, by the migration; after, by the trigger of audit_event_input and by the hot
 * path's appender — and the evidence lookup finds them there without reading every record.
 */
describe("migration 026 (audit_evidence instead of two indexes) on sqlite", () => {
  const through = (store: Store, e: AuditEvent) => {
    const { client_ip: _ip, duration_ms: _ms, ...fields } = e;
    return store.db
      .insertInto("audit_event_input")
      .values({ ...fields, actor_operator: null, salt: "0".repeat(32) })
      .execute();
  };
  const event = (n: number, action: string, resource: string | null, status = 200): AuditEvent => ({
    ...auditEvent(n),
    action,
    resource,
    status,
    outcome: status < 400 ? "success" : "failure",
  });
  const quoted = 'scan:quote " \\ \u2603';

  it("files the evidence events logged before it and after it, by every writer, and finds them by index", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hcs-026-"));
    const store = openStore({ engine: "sqlite", file: join(dir, "test.sqlite") });
    try {
      await store.migrate("025-audit-records-table");
      await through(store, event(0, "uploadScanResults", quoted));
      await through(store, event(1, "hipaa.grade", "practice:1234567893"));
      await through(store, event(2, "completeScan", "job:1"));
      await through(store, event(3, "uploadScanResults", null));

      await store.migrate();

      const objects = await sql<{ name: string }>`select name from sqlite_master
        where name in ('audit_events_evidence', 'audit_context_at', 'audit_evidence')`.execute(store.db);
      expect(objects.rows.map((r) => r.name)).toEqual(["audit_evidence"]);
      const filed = async () =>
        (
          await sql<{ resource: string; event_id: number }>`select resource, event_id from audit_evidence
            order by event_id`.execute(store.db)
        ).rows.map((r) => [r.resource, r.event_id]);
      expect(await filed()).toEqual([
        [quoted, 1],
        ["job:1", 3],
      ]);

      // After: the other writers' trigger and the hot path's appender file theirs; other operations are not filed.
      await through(store, event(4, "completeScan", "job:2"));
      await through(store, event(5, "refundScan", "job:2"));
      await store.writes.run((trx) =>
        appendAuditEvents(store.hot, trx, [
          event(6, "hipaa.grade", "practice:1234567893"),
          event(7, "uploadScanResults", "scan:9", 500),
          event(8, "uploadScanResults", "scan:9"),
        ]),
      );
      expect(await filed()).toEqual([
        [quoted, 1],
        ["job:1", 3],
        ["job:2", 5],
        ["scan:9", 8],
        ["scan:9", 9],
      ]);

      // The lookup searches the table (never reads every record) and answers each resource's first success.
      const refs = [quoted, "job:2", "scan:9", "job:none"];
      const query = loggingEventsQuery(store, refs).compile();
      const plan = await store.db.executeQuery<{ detail: string }>({
        ...query,
        sql: `explain query plan ${query.sql}`,
      });
      const steps = plan.rows.map((r) => r.detail).join(" | ");
      expect(steps).toMatch(/SEARCH audit_evidence/);
      expect(steps).not.toMatch(/SCAN audit_records/);
      const found = await loggingEvents({ store }, refs);
      expect(Object.fromEntries([...found].map(([ref, e]) => [ref, Number(e.id)]))).toEqual({
        [quoted]: 1,
        "job:2": 5,
        "scan:9": 9,
      });
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
