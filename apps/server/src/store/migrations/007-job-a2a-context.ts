import type { Kysely } from "kysely";
import type { Engine } from "./engine.js";

/**
 * A job started by an A2A SendMessage keeps the message's contextId, so GetTask and ListTasks report it and
 * ListTasks can filter an account's jobs by it (the index serves that filter). Jobs dispatched otherwise have none.
 */
export function jobA2aContextMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("jobs").addColumn("a2a_context_id", "text").execute();
      await db.schema
        .createIndex("jobs_account_context")
        .on("jobs")
        .columns(["account_id", "a2a_context_id", "created_at"])
        .execute();
    },
  };
}
