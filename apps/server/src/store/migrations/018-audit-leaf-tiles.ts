import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/** The record's columns (audit_events without the PostgreSQL sequencer's mark), for the views. */
const EVENT_COLUMNS = sql.raw(
  "e.id, e.at, e.request_id, e.actor_key_id, e.actor_account_id, e.actor_operator, e.action, e.transport, " +
    "e.resource, e.outcome, e.status, e.code, e.salt",
);

/**
 * The log's leaves are stored by the sequencer's runs (docs/audit.md#the-tree-and-the-sequencer): each journal
 * row (a run of consecutive event ids given consecutive indexes) carries its leaves' hashes back to back, 32 bytes
 * each, as C2SP tlog-tiles group a tree's leaves — one row written per run instead of rewriting each wide event row
 * to set its index (most of the sequencer's cost), and proofs read a log's leaves as a few blobs. The request path
 * only inserts the record's fields: the sequencer hashes them, so audit_events.leaf_hash goes (its values move into
 * the runs). On PostgreSQL the sequencer still marks audit_events.leaf_index (its writers commit out of id order, and
 * the partial index of unmarked events is how it finds the ones waiting); on SQLite, whose one writer hands ids out
 * in commit order (migration 014), that mark and its unique index — an index entry at every append — go.
 * audit_entries is the events with their leaf index and hash, found through the run that holds the event's id.
 *
 * On SQLite the context table is rebuilt keyed by a rowid alias (`integer primary key`): `bigint primary key` made
 * a second B-tree beside the table, one more insert per audited call.
 */
export function auditLeafTilesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const sqlite = engine === "sqlite";
      await db.schema
        .alterTable("audit_sequence_runs")
        .addColumn("leaf_hashes", sqlite ? "blob" : "bytea")
        .execute();
      // Each run's leaves, from the hashes its events carried (ids first_id … last_id hold indexes first_index …).
      const runs = (
        await sql<{
          first_index: number | string;
          first_id: number | string;
          last_id: number | string;
        }>`select first_index, first_id, last_id from audit_sequence_runs order by first_index`.execute(db)
      ).rows;
      for (const run of runs) {
        const { rows } = await sql<{ leaf_hash: string }>`select leaf_hash from audit_events
          where id >= ${run.first_id} and id <= ${run.last_id} order by id`.execute(db);
        const hashes = Buffer.from(rows.map((r) => r.leaf_hash).join(""), "hex");
        await sql`update audit_sequence_runs set leaf_hashes = ${hashes}
          where first_index = ${run.first_index}`.execute(db);
      }
      await db.schema
        .createIndex("audit_sequence_runs_first_id")
        .unique()
        .on("audit_sequence_runs")
        .column("first_id")
        .execute();

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
      // The run holding an event is the one with the greatest first id at or below it, if its last id reaches it
      // (one index probe: a run is never looked for by scanning).
      const run = (what: ReturnType<typeof sql>) => sql`(select case when r.last_id >= e.id then ${what} end
        from audit_sequence_runs r where r.first_id <= e.id order by r.first_id desc limit 1)`;
      const slice = sqlite
        ? sql`substr(r.leaf_hashes, (e.id - r.first_id) * 32 + 1, 32)`
        : sql`substring(r.leaf_hashes from ((e.id - r.first_id) * 32 + 1)::int for 32)`;
      await db.schema
        .createView("audit_entries")
        .as(
          sql`select ${EVENT_COLUMNS}, ${run(sql`r.first_index + e.id - r.first_id`)} as leaf_index,
            ${run(slice)} as leaf_hash from audit_events e` as never,
        )
        .execute();
      await db.schema
        .createView("audit_trail")
        .as(
          sql`select a.*, c.client_ip, c.duration_ms from audit_entries a
            left join audit_context c on c.event_id = a.id` as never,
        )
        .execute();
    },
  };
}
