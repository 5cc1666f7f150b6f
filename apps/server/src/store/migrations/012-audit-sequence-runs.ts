import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/**
 * The sequencer's journal: each run of consecutive event ids it gave consecutive leaf indexes (first index, first
 * and last id). `hcs-server audit verify` checks every event's index against it, so an event moved, inserted or
 * removed with the indexes renumbered around it is named at its exact index, not only found by the next checkpoint
 * (docs/audit.md#verifying). Events sequenced before this migration are journaled from their indexes.
 */
export function auditSequenceRunsMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("audit_sequence_runs")
        .addColumn("first_index", "bigint", (c) => c.primaryKey())
        .addColumn("first_id", "bigint", (c) => c.notNull())
        .addColumn("last_id", "bigint", (c) => c.notNull())
        .execute();
      const rows = (
        await sql<{ id: number | string; leaf_index: number | string }>`select id, leaf_index from audit_events
          where leaf_index is not null order by leaf_index`.execute(db)
      ).rows;
      // Split where ids stop being consecutive or indexes do (a late commit on PostgreSQL, or an earlier batch).
      let at = 0;
      while (at < rows.length) {
        let end = at + 1;
        while (
          end < rows.length &&
          Number(rows[end]!.id) === Number(rows[end - 1]!.id) + 1 &&
          Number(rows[end]!.leaf_index) === Number(rows[end - 1]!.leaf_index) + 1
        )
          end++;
        await sql`insert into audit_sequence_runs (first_index, first_id, last_id)
          values (${Number(rows[at]!.leaf_index)}, ${Number(rows[at]!.id)}, ${Number(rows[end - 1]!.id)})`.execute(db);
        at = end;
      }
    },
  };
}
