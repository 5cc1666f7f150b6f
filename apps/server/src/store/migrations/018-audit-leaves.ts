import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/** The record's columns (audit_events without the PostgreSQL sequencer's mark), for the views. */
const EVENT_COLUMNS = sql.raw(
  "e.id, e.at, e.request_id, e.actor_key_id, e.actor_account_id, e.actor_operator, e.action, e.transport, " +
    "e.resource, e.outcome, e.status, e.code, e.salt",
);

/**
 * The log's leaves in their own narrow, append-only table (docs/audit.md; docs/performance.md): the sequencer hashes
 * each waiting record and inserts (leaf index, event id, leaf hash) rows, instead of the request path hashing every
 * record and the sequencer rewriting each wide event row to set its index (most of its cost). The request path only
 * inserts the record's fields: audit_events.leaf_hash goes (its values move to audit_leaves, as bytes). `audit
 * verify` holds each record against the leaf the tree was built from; proofs read 32-byte leaves alone.
 * On PostgreSQL the sequencer still marks audit_events.leaf_index (its writers commit out of id order, and the
 * partial index of unmarked events is how it finds the ones waiting); on SQLite, whose one writer hands ids out in
 * commit order (migration 014), that column and its unique index — an index entry written at every append — go.
 * audit_entries is the events with their index, for reading on both engines.
 *
 * On SQLite the context table is rebuilt keyed by a rowid alias (`integer primary key`): `bigint primary key` made
 * a second B-tree beside the table, one more insert per audited call.
 */
export function auditLeavesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const sqlite = engine === "sqlite";
      await db.schema
        .createTable("audit_leaves")
        .addColumn("leaf_index", sqlite ? "integer" : "bigint", (c) => c.primaryKey())
        .addColumn("event_id", "bigint", (c) => c.notNull())
        .addColumn("leaf_hash", sqlite ? "blob" : "bytea", (c) => c.notNull())
        .execute();
      await sql`insert into audit_leaves (leaf_index, event_id, leaf_hash)
        select leaf_index, id, ${sqlite ? sql`unhex(leaf_hash)` : sql`decode(leaf_hash, 'hex')`}
        from audit_events where leaf_index is not null order by leaf_index`.execute(db);
      await db.schema.createIndex("audit_leaves_event").unique().on("audit_leaves").column("event_id").execute();

      await db.schema.dropView("audit_trail").execute();
      await db.schema.alterTable("audit_events").dropColumn("leaf_hash").execute();
      if (sqlite) {
        await db.schema.dropIndex("audit_events_leaf_index").execute();
        await sql`update audit_events set leaf_index = null where leaf_index is not null`.execute(db);
        await db.schema
          .createTable("audit_context_keyed")
          .addColumn("event_id", "integer", (c) => c.primaryKey())
          .addColumn("at", "text", (c) => c.notNull())
          .addColumn("client_ip", "text", (c) => c.notNull())
          .addColumn("duration_ms", "real", (c) => c.notNull())
          .execute();
        await sql`insert into audit_context_keyed (event_id, at, client_ip, duration_ms)
          select event_id, at, client_ip, duration_ms from audit_context order by event_id`.execute(db);
        await db.schema.dropTable("audit_context").execute();
        await db.schema.alterTable("audit_context_keyed").renameTo("audit_context").execute();
        await db.schema.createIndex("audit_context_at").on("audit_context").column("at").execute();
      }
      await db.schema
        .createView("audit_trail")
        .as(
          sql`select ${EVENT_COLUMNS}, l.leaf_index, l.leaf_hash, c.client_ip, c.duration_ms from audit_events e
            left join audit_leaves l on l.event_id = e.id left join audit_context c on c.event_id = e.id` as never,
        )
        .execute();
      await db.schema
        .createView("audit_entries")
        .as(
          sql`select ${EVENT_COLUMNS}, l.leaf_index, l.leaf_hash from audit_events e
            left join audit_leaves l on l.event_id = e.id` as never,
        )
        .execute();
    },
  };
}
