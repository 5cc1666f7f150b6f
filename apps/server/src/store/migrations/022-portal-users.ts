import type { Kysely } from "kysely";
import type { Engine } from "./engine.js";

/**
 * The customer portal's people and sign-in (docs/portal.md): users of an account with a role, one-time
 * invitations, TOTP recovery codes and server-side sessions. Every secret is stored hashed (invitation and session
 * tokens, recovery codes: SHA-256 of 32 random bytes or a random code; passwords: scrypt) or sealed (TOTP secrets).
 */
export function portalUsersMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("portal_users")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("email", "text", (c) => c.notNull().unique())
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("password_hash", "text")
        .addColumn("totp_secret_enc", "text")
        .addColumn("totp_pending_enc", "text")
        .addColumn("totp_last_step", "integer")
        .addColumn("failed_sign_ins", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("locked_until", "text")
        .addColumn("invited_by", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("disabled_at", "text")
        .execute();
      await db.schema.createIndex("portal_users_account").on("portal_users").column("account_id").execute();

      await db.schema
        .createTable("portal_invites")
        .addColumn("token_hash", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("portal_users.id"))
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addColumn("used_at", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("portal_recovery_codes")
        .addColumn("user_id", "text", (c) => c.notNull().references("portal_users.id"))
        .addColumn("code_hash", "text", (c) => c.notNull())
        .addColumn("used_at", "text")
        .addPrimaryKeyConstraint("portal_recovery_codes_pk", ["user_id", "code_hash"])
        .execute();

      await db.schema
        .createTable("portal_sessions")
        .addColumn("token_hash", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("portal_users.id"))
        .addColumn("stage", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("last_seen_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addColumn("ended_at", "text")
        .execute();
      await db.schema.createIndex("portal_sessions_user").on("portal_sessions").column("user_id").execute();
    },
  };
}
