import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/**
 * Fewer index writes per audited call (each audit event was six B-tree inserts, each paid on the request path):
 * - audit_events(at) is dropped: nothing reads events by time (the reputation's window reads audit_context.at);
 * - on SQLite the sequencer finds waiting events by the id after the last it sequenced (`sequenced_id`): with one
 *   writer at a time, ids are handed out in commit order, so the partial index of unsequenced events — an insert at
 *   every append and a delete at every sequencing — is dropped. PostgreSQL keeps it: with several writers an id can
 *   commit after a higher one was sequenced;
 * - hipaa.evidence finds the events that logged a record by resource through a partial index of those operations
 *   only, which lookups never write.
 */
export function auditAppendCostMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex("audit_events_at").execute();
      await db.schema
        .alterTable("audit_log")
        .addColumn("sequenced_id", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
      if (engine === "sqlite") {
        await sql`update audit_log set sequenced_id =
          coalesce((select max(id) from audit_events where leaf_index is not null), 0) where id = 1`.execute(db);
        await db.schema.dropIndex("audit_events_unsequenced").execute();
      }
      await db.schema
        .createIndex("audit_events_evidence")
        .on("audit_events")
        .column("resource")
        .where(sql.ref("action"), "in", sql`('uploadScanResults', 'completeScan')`)
        .execute();
    },
  };
}
