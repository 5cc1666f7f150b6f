import { type Kysely, sql } from "kysely";
import { AUDIT_RECORD_FIELDS, sqliteRecordJson } from "./024-audit-record-text.js";
import type { Engine } from "./engine.js";

/**
 * On SQLite the audit record's text is stored in a table of its own, `audit_records (id, record, leaf_index)`, and
 * `audit_events` becomes a view of it that reads the fields from the text (docs/audit.md, "How the record is
 * stored"). Why: SQLite computes every generated column of a row when it inserts it, virtual ones included, so the
 * twelve field columns migration 024 declared cost each audited call twelve JSON lookups on the writer thread — ~1.45
 * of the ~3 µs its event's insert took (docs/performance.md#the-audit-logs-cost). A view computes them only when
 * they are read. What 024 promised still holds: the fields are read from the hashed text and cannot be changed apart
 * from it (a view cannot be updated); deleting through the view deletes the record, as on PostgreSQL. The evidence
 * index becomes a partial index on the record's expressions over audit_records, which SQLite uses only for a query
 * that names those expressions on the table itself, never through the view (audit/evidence.ts, loggingEventsQuery).
 *
 * Nothing is copied: the generated columns are virtual (dropping one rewrites no row) and the table is renamed, which
 * carries its AUTOINCREMENT sequence with it. PostgreSQL is unchanged (its fields are columns).
 */
export function auditRecordsTableMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine === "postgres") return;
      // The views over audit_events, made again from their own text afterwards (audit_entries first: audit_trail
      // reads it); audit_event_input is made anew below (its trigger writes the table's new name).
      const views = (
        await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
          where type = 'view' and name in ('audit_entries', 'audit_trail') order by name`.execute(db)
      ).rows;
      await sql`drop view if exists audit_trail`.execute(db);
      await sql`drop view if exists audit_entries`.execute(db);
      await sql`drop view if exists audit_event_input`.execute(db);
      await sql`drop index if exists audit_events_evidence`.execute(db);
      for (const [column] of AUDIT_RECORD_FIELDS)
        await sql.raw(`alter table audit_events drop column "${column}"`).execute(db);
      await sql`alter table audit_events rename to audit_records`.execute(db);

      const fields = AUDIT_RECORD_FIELDS.map(([column, , path]) => `record ->> '${path}' as "${column}"`).join(",\n  ");
      await sql
        .raw(`create view audit_events as select id, record, leaf_index,\n  ${fields}\nfrom audit_records`)
        .execute(db);
      await sql`create trigger audit_events_delete instead of delete on audit_events begin
          delete from audit_records where id = old.id;
        end`.execute(db);
      // Evidence lookups (audit/evidence.ts: by resource, among these operations), written on audit_records itself.
      await sql`create index audit_events_evidence on audit_records (record ->> '$.resource')
        where record ->> '$.operation' in ('uploadScanResults', 'completeScan')`.execute(db);
      for (const view of views) await sql.raw(view.sql).execute(db);

      await sql`create view audit_event_input as select at, request_id, actor_key_id, actor_account_id,
        actor_operator, action, transport, resource, outcome, status, code, salt from audit_events`.execute(db);
      await sql.raw(auditEventInputTrigger("")).execute(db);
    },
  };
}

/**
 * SQLite: the trigger that stores an event written through the view audit_event_input (the writers other than the
 * hot path: operator commands, the job worker, the portal) as its record's canonical text, after refusing one without
 * a field every v1 record has (024's NOT NULL columns required them; the hot path's writer checks its own).
 * `then`: statements run after the insert (migration 026 adds the evidence table's row).
 */
export function auditEventInputTrigger(then: string): string {
  const required = AUDIT_RECORD_FIELDS.filter(([, , , notNull]) => notNull)
    .map(([column]) => `new."${column}" is null`)
    .join(" or ");
  return `create trigger audit_event_input_insert instead of insert on audit_event_input begin
          select raise(abort, 'audit record without time, request_id, action, outcome, status or transport')
            where ${required};
          insert into audit_records (record) values (${sqliteRecordJson("new.")});${then}
        end`;
}
