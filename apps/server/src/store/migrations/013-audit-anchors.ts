import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/**
 * Anchors of audit checkpoints on an EVM chain (docs/audit.md#anchoring): one row per checkpoint, from the moment
 * anchoring is configured until its transaction's block is finalized. The lease columns let several serving
 * processes share the work without two of them sending for one checkpoint; the partial index finds what is still
 * to do. Nothing here is secret: a transaction hash and a block are public on the chain.
 */
export function auditAnchorsMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("audit_anchors")
        .addColumn("size", "bigint", (c) => c.primaryKey().references("audit_checkpoints.size"))
        .addColumn("chain_id", "bigint", (c) => c.notNull())
        .addColumn("contract", "text", (c) => c.notNull())
        .addColumn("day", "integer", (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("tx_hash", "text")
        .addColumn("block_number", "bigint")
        .addColumn("block_hash", "text")
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("last_error", "text")
        .addColumn("next_attempt_at", "text", (c) => c.notNull())
        .addColumn("lease_owner", "text")
        .addColumn("lease_expires_at", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("sent_at", "text")
        .addColumn("finalized_at", "text")
        .addCheckConstraint("audit_anchors_state", sql`state in ('pending', 'sent', 'finalized')`)
        .execute();
      await db.schema
        .createIndex("audit_anchors_due")
        .on("audit_anchors")
        .column("next_attempt_at")
        .where(sql.ref("state"), "<>", "finalized")
        .execute();
    },
  };
}
