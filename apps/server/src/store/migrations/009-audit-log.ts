import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/**
 * The audit log proper: each event gets its leaf index — its place in the RFC 9162 tree — from the sequencer, in
 * commit order, gap-free (an autoincrement id is not commit order with several PostgreSQL writers). audit_log holds
 * the tree's state between sequencer runs: its size, the frontier (right border) and the head. The partial index
 * finds the events still waiting for an index.
 */
export function auditLogMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("audit_events").addColumn("leaf_index", "bigint").execute();
      await db.schema.createIndex("audit_events_leaf_index").unique().on("audit_events").column("leaf_index").execute();
      await db.schema
        .createIndex("audit_events_unsequenced")
        .on("audit_events")
        .column("id")
        .where(sql.ref("leaf_index"), "is", null)
        .execute();
      await db.schema
        .createTable("audit_log")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("size", "bigint", (c) => c.notNull())
        .addColumn("frontier", "text", (c) => c.notNull())
        .addColumn("root_hash", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      // The empty tree: size 0, no peaks, head SHA-256("").
      await sql`insert into audit_log (id, size, frontier, root_hash, updated_at) values (1, 0, ${'{"size":0,"peaks":[]}'},
        ${"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}, ${new Date().toISOString()})`.execute(
        db,
      );
    },
  };
}
