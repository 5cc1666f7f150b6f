import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/**
 * SQLite's canonical JSON of an audit record v1 (keys in sorted order; `actor.operator` only when set), built from
 * the record's values as they are named over `src`: json_object's string escaping is ECMAScript's JSON.stringify's,
 * which is RFC 8785's (audit/log-pages.case.test.ts holds it byte-equal to services/audit.ts's auditRecordJson on
 * arbitrary strings). Frozen here: the migration's copy of the existing events and the insert trigger use it. The
 * status is cast: a bound JavaScript number reaches a trigger as a real (100.0), which the old integer column
 * converted on its way in.
 */
export const sqliteRecordJson = (src: string) => `json_object(
    'actor', case when ${src}actor_operator is null
      then json_object('account_id', ${src}actor_account_id, 'key_id', ${src}actor_key_id)
      else json_object('account_id', ${src}actor_account_id, 'key_id', ${src}actor_key_id,
        'operator', ${src}actor_operator) end,
    'code', ${src}code, 'operation', ${src}action, 'outcome', ${src}outcome, 'request_id', ${src}request_id,
    'resource', ${src}resource, 'salt', ${src}salt, 'status', cast(${src}status as integer), 'time', ${src}at,
    'transport', ${src}transport, 'v', 1)`;

/** The record's fields as SQLite reads them back from its text: the columns of audit_events, in their old order. */
export const AUDIT_RECORD_FIELDS: readonly [column: string, type: string, path: string, notNull: boolean][] = [
  ["at", "text", "$.time", true],
  ["request_id", "text", "$.request_id", true],
  ["actor_key_id", "text", "$.actor.key_id", false],
  ["actor_account_id", "text", "$.actor.account_id", false],
  ["action", "text", "$.operation", true],
  ["resource", "text", "$.resource", false],
  ["outcome", "text", "$.outcome", true],
  ["status", "integer", "$.status", true],
  ["transport", "text", "$.transport", true],
  ["code", "text", "$.code", false],
  ["salt", "text", "$.salt", false],
  ["actor_operator", "text", "$.actor.operator", false],
];

/**
 * On SQLite the audit record's canonical text becomes what is stored (docs/audit.md#how-the-record-is-stored):
 * audit_events keeps one `record` column, the exact bytes the log hashes after 0x00, and its fields become virtual
 * generated columns read from that text (`record ->> '$.operation'`…), so queries, indexes and views keep their names
 * and nothing can change a field without changing the hashed text. The verifier and the sequencer read the stored text
 * instead of rebuilding it with json_object from thirteen columns, the part of `audit verify`'s time per event that was
 * neither hashing nor the tree (docs/performance.md#the-audit-logs-cost). The hot path's writer builds the text
 * (auditRecordJson); every other writer inserts the fields into the view audit_event_input, whose trigger builds it
 * with json_object — on PostgreSQL that view passes the insert through to audit_events, whose fields stay columns (its
 * verifier builds and hashes records in the database, in other processes). Existing events are copied with their
 * records built by SQLite exactly as the verifier built them (so every leaf still matches), their ids and the id
 * sequence kept.
 */
export function auditRecordTextMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine === "postgres") {
        await sql`create view audit_event_input as select at, request_id, actor_key_id, actor_account_id,
          actor_operator, action, transport, resource, outcome, status, code, salt from audit_events`.execute(db);
        return;
      }
      // The views over audit_events, dropped for the rebuild and made again from their own text (audit_entries
      // first: audit_trail reads it).
      const views = (
        await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
          where type = 'view' and name in ('audit_entries', 'audit_trail') order by name`.execute(db)
      ).rows;
      await sql`drop view if exists audit_trail`.execute(db);
      await sql`drop view if exists audit_entries`.execute(db);

      const generated = AUDIT_RECORD_FIELDS.map(
        ([column, type, path, notNull]) =>
          `"${column}" ${type} generated always as (record ->> '${path}') virtual${notNull ? " not null" : ""}`,
      ).join(",\n        ");
      await sql
        .raw(`create table audit_events_text (
        "id" integer primary key autoincrement,
        "record" text not null,
        "leaf_index" bigint,
        ${generated})`)
        .execute(db);
      await sql
        .raw(`insert into audit_events_text (id, record, leaf_index)
          select e.id, ${sqliteRecordJson("e.")}, e.leaf_index from audit_events e order by e.id`)
        .execute(db);
      const seq = (await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'audit_events'`.execute(db))
        .rows[0]?.seq;
      await sql`drop table audit_events`.execute(db);
      await sql`alter table audit_events_text rename to audit_events`.execute(db);
      // The id sequence as it was (an AUTOINCREMENT id is never handed out twice, even after the last was deleted).
      if (seq !== undefined) await sql`update sqlite_sequence set seq = ${seq} where name = 'audit_events'`.execute(db);
      await sql`create index audit_events_evidence on audit_events (resource)
        where action in ('uploadScanResults', 'completeScan')`.execute(db);
      for (const view of views) await sql.raw(view.sql).execute(db);

      await sql`create view audit_event_input as select at, request_id, actor_key_id, actor_account_id,
        actor_operator, action, transport, resource, outcome, status, code, salt from audit_events`.execute(db);
      await sql
        .raw(`create trigger audit_event_input_insert instead of insert on audit_event_input begin
          insert into audit_events (record) values (${sqliteRecordJson("new.")});
        end`)
        .execute(db);
    },
  };
}
