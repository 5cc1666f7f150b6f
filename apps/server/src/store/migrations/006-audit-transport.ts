import type { Kysely } from "kysely";
import type { Engine } from "./engine.js";

/**
 * Audit events name the protocol a call came by (`rest`, `jsonrpc`, `mcp`, `a2a`) beside the operation, so one
 * operation reached four ways is one action in the trail. Existing events came over REST.
 */
export function auditTransportMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("audit_events")
        .addColumn("transport", "text", (c) => c.notNull().defaultTo("rest"))
        .execute();
    },
  };
}
