import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/**
 * Writes that do not come over HTTP are audited too (docs/audit.md): an operator command's event names the OS user
 * who ran it, in the hashed record (`actor.operator`, present only when set, so every earlier record hashes as
 * before). The audit_trail view is made again: PostgreSQL fixes a view's `e.*` when the view is created.
 */
export function auditOperatorMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropView("audit_trail").execute();
      await db.schema.alterTable("audit_events").addColumn("actor_operator", "text").execute();
      await db.schema
        .createView("audit_trail")
        .as(
          sql`select e.*, c.client_ip, c.duration_ms from audit_events e left join audit_context c on c.event_id = e.id` as never,
        )
        .execute();
    },
  };
}
