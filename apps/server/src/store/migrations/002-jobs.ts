import type { Kysely } from "kysely";
import type { Engine } from "./engine.js";

/** Durable scan jobs and the webhook delivery outbox (docs/operations.md#jobs-and-workers, docs/webhooks.md). */
export function jobsMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("jobs")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("scan_type", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("callback_url", "text")
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("max_attempts", "integer", (c) => c.notNull())
        .addColumn("run_after", "text", (c) => c.notNull())
        .addColumn("lease_owner", "text")
        .addColumn("lease_expires_at", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("started_at", "text")
        .addColumn("completed_at", "text")
        .addColumn("duration_ms", "integer")
        .addColumn("credits_charged", "integer", (c) => c.notNull())
        .addColumn("result", "text")
        .addColumn("error_code", "text")
        .addColumn("error_message", "text")
        .execute();
      await db.schema.createIndex("jobs_claim").on("jobs").columns(["status", "run_after"]).execute();
      await db.schema.createIndex("jobs_account").on("jobs").columns(["account_id", "created_at"]).execute();
      await db.schema.createIndex("jobs_type_done").on("jobs").columns(["scan_type", "completed_at"]).execute();

      await db.schema
        .createTable("webhook_deliveries")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("job_id", "text", (c) => c.notNull().references("jobs.id"))
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("event", "text", (c) => c.notNull())
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("next_attempt_at", "text", (c) => c.notNull())
        .addColumn("last_attempt_at", "text")
        .addColumn("last_status_code", "integer")
        .addColumn("last_error", "text")
        .addColumn("lease_owner", "text")
        .addColumn("lease_expires_at", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("give_up_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("webhook_deliveries_due")
        .on("webhook_deliveries")
        .columns(["status", "next_attempt_at"])
        .execute();
      await db.schema.createIndex("webhook_deliveries_job").on("webhook_deliveries").column("job_id").execute();
    },
  };
}
