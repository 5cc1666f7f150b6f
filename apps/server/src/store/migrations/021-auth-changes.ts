import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/**
 * Pushes every change of what authenticating a key reads to the servers' key caches (store/key-cache.ts): a key
 * revoked, expired, re-secreted, moved to another account or deleted; an account's plan or tier changed or the
 * account deleted. Triggers, so that no writer can forget it — the API, the operator CLI, another server process,
 * an operator's SQL session alike. Credit balances and other columns do not fire them (a charge is no reason to
 * forget a key).
 * - SQLite: a counter (auth_epoch) that each lookup reads before trusting its cache.
 * - PostgreSQL: a notification on `hcs_auth_changed` with the schema as payload, delivered at commit to every
 *   listening server process (nothing is sent for a transaction that rolls back).
 */
export function authChangesMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine === "sqlite") {
        await db.schema
          .createTable("auth_epoch")
          .addColumn("id", "integer", (c) => c.primaryKey())
          .addColumn("epoch", "integer", (c) => c.notNull())
          .execute();
        await sql`insert into auth_epoch (id, epoch) values (1, 0)`.execute(db);
        const bump = sql.raw("update auth_epoch set epoch = epoch + 1 where id = 1;");
        await sql`create trigger api_keys_auth_update after update of secret_hash, revoked_at, expires_at, account_id
          on api_keys begin ${bump} end`.execute(db);
        await sql`create trigger api_keys_auth_delete after delete on api_keys begin ${bump} end`.execute(db);
        await sql`create trigger accounts_auth_update after update of plan, tier on accounts begin ${bump} end`.execute(
          db,
        );
        await sql`create trigger accounts_auth_delete after delete on accounts begin ${bump} end`.execute(db);
        return;
      }
      await sql`create function hcs_auth_changed() returns trigger language plpgsql as $$
        begin
          perform pg_notify('hcs_auth_changed', TG_TABLE_SCHEMA);
          return null;
        end $$`.execute(db);
      await sql`create trigger api_keys_auth_changed
        after update of secret_hash, revoked_at, expires_at, account_id or delete on api_keys
        for each statement execute function hcs_auth_changed()`.execute(db);
      await sql`create trigger accounts_auth_changed after update of plan, tier or delete on accounts
        for each statement execute function hcs_auth_changed()`.execute(db);
    },
  };
}
