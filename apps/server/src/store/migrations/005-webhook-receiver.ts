import type { Kysely } from "kysely";
import type { Engine } from "./engine.js";

/**
 * Webhook deliveries name their receiver (the callback URL's origin) in a column of its own, so the per-receiver
 * concurrency bound is a plain `group by receiver` / `receiver not in (…)` rather than a match on URL text; an index
 * serves the count of live leases every claim makes.
 */
export function webhookReceiverMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // SQLite adds a NOT NULL column only with a default; every row is filled below and inserts always set it.
      await db.schema
        .alterTable("webhook_deliveries")
        .addColumn("receiver", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      const typed = db as Kysely<Tables>;
      const rows = await typed.selectFrom("webhook_deliveries").select(["id", "url"]).execute();
      for (const row of rows) {
        await typed
          .updateTable("webhook_deliveries")
          .set({ receiver: receiverOfV5(row.url) })
          .where("id", "=", row.id)
          .execute();
      }
      await db.schema
        .createIndex("webhook_deliveries_leases")
        .on("webhook_deliveries")
        .columns(["status", "lease_expires_at"])
        .execute();
    },
  };
}

/**
 * The receiver as this migration defines it (frozen: webhooks/receiver.ts's receiverOf is the live rule, and a
 * migration must not change meaning when it changes): the URL's origin, or the URL itself if it does not parse.
 */
export function receiverOfV5(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

interface Tables {
  webhook_deliveries: { id: string; url: string; receiver: string };
}
