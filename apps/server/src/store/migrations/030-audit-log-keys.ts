import type { Kysely } from "kysely";
import type { Engine } from "./engine.js";

/**
 * One audit log per deployment, however many processes serve it (docs/audit.md#checkpoints-and-the-log-key):
 * - audit_log.origin: the log's name in its checkpoints, fixed when the log gets its first key (null until then), so
 *   a later change of the public URL does not rename the log;
 * - audit_log_keys: the log's signing keys, one per epoch (0 the first; each rotation the next), the private key
 *   sealed under the master key every instance shares, its verifier key in clear, the log size from which it signs,
 *   and — from epoch 1 on — the handover: a checkpoint of the log at that size signed by the previous key and this
 *   one, so a verifier trusting either key can follow the rotation;
 * - audit_checkpoints.key_epoch: the key that signed each checkpoint (its verifier key goes into proof bundles).
 *   Checkpoints signed before this migration were signed by the data directory's key file, which the first server
 *   to start imports as epoch 0.
 */
export function auditLogKeysMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("audit_log").addColumn("origin", "text").execute();
      await db.schema
        .createTable("audit_log_keys")
        .addColumn("epoch", "integer", (c) => c.primaryKey())
        .addColumn("verifier_key", "text", (c) => c.notNull().unique())
        .addColumn("sealed_key", "text", (c) => c.notNull())
        .addColumn("from_size", "bigint", (c) => c.notNull())
        .addColumn("handover", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .alterTable("audit_checkpoints")
        .addColumn("key_epoch", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
