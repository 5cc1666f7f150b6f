import { type Kysely, sql } from "kysely";
import { autoIdColumn, type Engine } from "./engine.js";

/**
 * account_plans: each plan an account has been on and since when (the account's creation, then every
 * `hcs-server accounts set-plan` that changed it). Usage statements are plan years counted from these instants
 * (services/usage-statements.ts), so a statement names the plan it was charged under and a change of plan starts a
 * new year. Existing accounts get one row: their current plan since their creation.
 */
export function accountPlansMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await autoIdColumn(engine, db.schema.createTable("account_plans"))
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("plan", "text", (c) => c.notNull())
        .addColumn("started_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("account_plans_account").on("account_plans").columns(["account_id", "id"]).execute();
      await sql`insert into account_plans (account_id, plan, started_at)
        select id, plan, created_at from accounts order by created_at, id`.execute(db);
    },
  };
}
