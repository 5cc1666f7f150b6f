import { type Kysely, sql } from "kysely";
import { autoIdColumn, type Engine } from "./engine.js";

/** Accounts, keys, practices, credits, assessments, findings, grades, audit events, rate limits. */
export function coreMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("accounts")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("plan", "text", (c) => c.notNull())
        .addColumn("tier", "text", (c) => c.notNull())
        .addColumn("credits", "integer", (c) => c.notNull().check(sqlNonNegative("credits")))
        .addColumn("email", "text")
        .addColumn("webhook_secret_enc", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("api_keys")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("secret_hash", "text", (c) => c.notNull())
        .addColumn("label", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text")
        .addColumn("revoked_at", "text")
        .execute();
      await db.schema.createIndex("api_keys_account").on("api_keys").column("account_id").execute();

      await db.schema
        .createTable("practices")
        .addColumn("npi", "text", (c) => c.primaryKey())
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("domain", "text", (c) => c.notNull())
        .addColumn("website", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("practices_account").on("practices").column("account_id").execute();

      await autoIdColumn(engine, db.schema.createTable("credit_ledger"))
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("delta", "integer", (c) => c.notNull())
        .addColumn("balance_after", "integer", (c) => c.notNull())
        .addColumn("operation", "text", (c) => c.notNull())
        .addColumn("reference", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("credit_ledger_account").on("credit_ledger").columns(["account_id", "id"]).execute();

      await db.schema
        .createTable("assessments")
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("categories", "text", (c) => c.notNull())
        .addColumn("assessed_at", "text", (c) => c.notNull())
        .addColumn("reference", "text")
        .addPrimaryKeyConstraint("assessments_pk", ["npi", "source", "subject"])
        .execute();

      await db.schema
        .createTable("findings")
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("finding_id", "text", (c) => c.notNull())
        .addColumn("check_id", "text", (c) => c.notNull())
        .addColumn("category", "text", (c) => c.notNull())
        .addColumn("severity", "text", (c) => c.notNull())
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("detail", "text", (c) => c.notNull())
        .addColumn("evidence", "text", (c) => c.notNull())
        .addColumn("remediation", "text", (c) => c.notNull())
        .addColumn("controls", "text", (c) => c.notNull())
        .addColumn("host", "text")
        .addColumn("grade_cap", "text")
        .addColumn("first_seen", "text", (c) => c.notNull())
        .addColumn("last_seen", "text", (c) => c.notNull())
        .addColumn("resolved_at", "text")
        .addPrimaryKeyConstraint("findings_pk", ["npi", "source", "subject", "finding_id"])
        .execute();
      await db.schema.createIndex("findings_open").on("findings").columns(["npi", "resolved_at"]).execute();

      await autoIdColumn(engine, db.schema.createTable("grades"))
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("computed_at", "text", (c) => c.notNull())
        .addColumn("scan_date", "text", (c) => c.notNull())
        .addColumn("compliance_score", "integer", (c) => c.notNull())
        .addColumn("grade", "text", (c) => c.notNull())
        .addColumn("scoring_version", "text", (c) => c.notNull())
        .addColumn("record", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("grades_npi").on("grades").columns(["npi", "id"]).execute();

      await autoIdColumn(engine, db.schema.createTable("audit_events"))
        .addColumn("at", "text", (c) => c.notNull())
        .addColumn("request_id", "text", (c) => c.notNull())
        .addColumn("actor_key_id", "text")
        .addColumn("actor_account_id", "text")
        .addColumn("action", "text", (c) => c.notNull())
        .addColumn("resource", "text")
        .addColumn("outcome", "text", (c) => c.notNull())
        .addColumn("status", "integer", (c) => c.notNull())
        .addColumn("client_ip", "text", (c) => c.notNull())
        .addColumn("duration_ms", "real", (c) => c.notNull())
        .addColumn("leaf_hash", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("audit_events_at").on("audit_events").column("at").execute();

      await db.schema
        .createTable("rate_limits")
        .addColumn("bucket", "text", (c) => c.notNull())
        .addColumn("window_start", "bigint", (c) => c.notNull())
        .addColumn("count", "integer", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("rate_limits_pk", ["bucket", "window_start"])
        .execute();
      await db.schema.createIndex("rate_limits_expiry").on("rate_limits").column("expires_at").execute();

      await db.schema
        .createTable("breaches")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("npi", "text")
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("reported_at", "text", (c) => c.notNull())
        .addColumn("individuals_affected", "integer")
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("server_meta")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("documents")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("npi", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
    },
  };
}

function sqlNonNegative(column: string) {
  return sql`${sql.ref(column)} >= 0`;
}
