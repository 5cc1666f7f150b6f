import type { Kysely } from "kysely";
import type { Engine } from "./engine.js";

/**
 * Signed checkpoints of the audit log (C2SP tlog-checkpoint in a signed note), one per tree size, each with the
 * consistency proof from the checkpoint before it.
 */
export function auditCheckpointsMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("audit_checkpoints")
        .addColumn("size", "bigint", (c) => c.primaryKey())
        .addColumn("root_hash", "text", (c) => c.notNull())
        .addColumn("note", "text", (c) => c.notNull())
        .addColumn("consistency_from", "bigint")
        .addColumn("consistency_proof", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
    },
  };
}
