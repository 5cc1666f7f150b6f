import { type Kysely, sql } from "kysely";
import { auditEventInputTrigger } from "./025-audit-records-table.js";
import type { Engine } from "./engine.js";

/**
 * SQLite: two indexes that every audited call paid for on the writer thread, and that served one rare query each,
 * give way to what those queries need (docs/audit.md "How the record is stored",
 * docs/performance.md#the-audit-logs-cost):
 *
 * - The evidence index (025: a partial index on the record's `$.resource` where its `$.operation` is one of the two
 *   evidence operations) made SQLite parse every inserted record's JSON to test the condition, ~0.4 µs an event. The
 *   evidence events are filed instead in `audit_evidence (resource, event_id)`, by their writers: the hot path's
 *   appender and the trigger of audit_event_input, each for those two operations only. It is a lookup table, not
 *   evidence itself: what hipaa.evidence answers is still read from the hashed records, with their proofs.
 * - audit_context(at), ~0.45 µs an event, served only the reputation's 24-hour average response time. The context's
 *   rows are keyed by event id, which the one writer hands out in commit order, so their times rise with the id (up
 *   to the requests in flight together): the window's first row is found by bisection over the ids
 *   (services/reputation.ts).
 *
 * PostgreSQL is unchanged: its settlement writes in one round trip, and its index on the fields' columns costs no
 * JSON parsing.
 */
/**
 * The evidence operations when this migration was written (audit/evidence-operations.ts holds the live list; frozen
 * here so that the migration means what it meant: a new evidence operation needs a migration of its own that files
 * its events).
 */
export const EVIDENCE_OPERATIONS_V26 = ["uploadScanResults", "completeScan"] as const;

export function auditAppendIndexesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine === "postgres") return;
      const operations = EVIDENCE_OPERATIONS_V26.map((o) => `'${o}'`).join(", ");
      await sql`create table audit_evidence (
          resource text not null,
          event_id integer not null,
          primary key (resource, event_id)
        ) without rowid`.execute(db);
      await sql
        .raw(`insert into audit_evidence (resource, event_id)
          select record ->> '$.resource', id from audit_records
          where record ->> '$.operation' in (${operations}) and record ->> '$.resource' is not null`)
        .execute(db);
      await sql`drop index audit_events_evidence`.execute(db);
      await sql`drop index audit_context_at`.execute(db);
      await sql`drop trigger audit_event_input_insert`.execute(db);
      await sql
        .raw(
          auditEventInputTrigger(`
          insert into audit_evidence (resource, event_id)
            select new.resource, last_insert_rowid() where new.action in (${operations}) and new.resource is not null;`),
        )
        .execute(db);
    },
  };
}
