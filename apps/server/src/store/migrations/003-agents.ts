import type { Kysely } from "kysely";
import type { Engine } from "./engine.js";

/** Scanner enrollment (deploy tokens, agents) and uploaded scans (docs/api.md#the-internal-scanner). */
export function agentsMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("deploy_tokens")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("created_by_key_id", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addColumn("max_uses", "integer", (c) => c.notNull())
        .addColumn("uses", "integer", (c) => c.notNull())
        .addColumn("revoked_at", "text")
        .execute();

      await db.schema
        .createTable("agents")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("deploy_token_id", "text", (c) => c.notNull().references("deploy_tokens.id"))
        .addColumn("public_key", "text", (c) => c.notNull())
        .addColumn("hostname", "text", (c) => c.notNull())
        .addColumn("platform", "text", (c) => c.notNull())
        .addColumn("os_release", "text")
        .addColumn("scanner_version", "text", (c) => c.notNull())
        .addColumn("ephemeral", "integer", (c) => c.notNull())
        .addColumn("registered_at", "text", (c) => c.notNull())
        .addColumn("last_seen_at", "text")
        .addColumn("revoked_at", "text")
        .execute();
      await db.schema.createIndex("agents_npi").on("agents").column("npi").execute();

      await db.schema
        .createTable("scan_uploads")
        .addColumn("scan_id", "text", (c) => c.primaryKey())
        .addColumn("agent_id", "text", (c) => c.notNull().references("agents.id"))
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("body_sha256", "text", (c) => c.notNull())
        .addColumn("received_at", "text", (c) => c.notNull())
        .addColumn("document", "text", (c) => c.notNull())
        .addColumn("acceptance", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("scan_uploads_npi").on("scan_uploads").columns(["npi", "received_at"]).execute();
    },
  };
}
