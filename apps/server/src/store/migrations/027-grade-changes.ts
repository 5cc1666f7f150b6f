import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/**
 * Pushes every change of what a grade lookup reads to the servers' grade caches (store/grade-cache.ts) — a grade
 * stored, changed or deleted; a practice renamed, renumbered or deleted. Triggers, so that no writer can forget it:
 * the API, a scan's upload, a threat-feed regrade, the operator CLI, another process, an SQL session alike. A
 * practice's insert fires none: practices that are not found are never cached.
 * - SQLite: a counter (grade_epoch) that the first lookup of each event-loop turn reads before trusting its cache.
 * - PostgreSQL: a notification on `hcs_grades_changed` with the schema as payload, delivered at commit to every
 *   listening server process (as migration 021's for keys).
 */
export function gradeChangesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine === "postgres") {
        await sql`create function hcs_grades_changed() returns trigger language plpgsql as $$
          begin
            perform pg_notify('hcs_grades_changed', TG_TABLE_SCHEMA);
            return null;
          end $$`.execute(db);
        await sql`create trigger grades_changed after insert or update or delete on grades
          for each statement execute function hcs_grades_changed()`.execute(db);
        await sql`create trigger practices_grade_changed after update of npi, name or delete on practices
          for each statement execute function hcs_grades_changed()`.execute(db);
        return;
      }
      await db.schema
        .createTable("grade_epoch")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("epoch", "integer", (c) => c.notNull())
        .execute();
      await sql`insert into grade_epoch (id, epoch) values (1, 0)`.execute(db);
      const bump = sql.raw("update grade_epoch set epoch = epoch + 1 where id = 1;");
      await sql`create trigger grades_change_insert after insert on grades begin ${bump} end`.execute(db);
      await sql`create trigger grades_change_update after update on grades begin ${bump} end`.execute(db);
      await sql`create trigger grades_change_delete after delete on grades begin ${bump} end`.execute(db);
      await sql`create trigger practices_change_update after update of npi, name on practices begin ${bump} end`.execute(
        db,
      );
      await sql`create trigger practices_change_delete after delete on practices begin ${bump} end`.execute(db);
    },
  };
}
