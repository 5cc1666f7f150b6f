import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/**
 * SQLite: pushes every change of what a grade lookup reads to the server's grade cache (store/grade-cache.ts) — a
 * grade stored, changed or deleted; a practice renamed, renumbered or deleted — through a counter (grade_epoch) that
 * the first lookup of each event-loop turn reads before trusting its cache. Triggers, so that no writer can forget
 * it: the API, a scan's upload, a threat-feed regrade, the operator CLI, another process, an SQL session alike.
 * A practice's insert does not fire one: practices that are not found are never cached.
 *
 * PostgreSQL keeps no grade cache (its lookups are bound by their settlement's round trip): nothing to add.
 */
export function gradeChangesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine === "postgres") return;
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
