import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/**
 * Claims of practices with proof of control (docs/onboarding.md#proof-of-control): who claims which NPI for which
 * domain, the challenge they publish (a DNS TXT record or a file under /.well-known/), and where the claim stands.
 * A practice's owner is the account of its one proved claim: the unique index holds every engine to one.
 * Practices registered before (by the operator) are their owner's by the operator's word: each gets a proved claim
 * of method `operator`. Jobs gain `claim_id` (a scan a claimant dispatched before proving control) and
 * `public_result` (what such a scan answers: the public grade of the claimed domain, nothing owner-only).
 */
export function practiceClaimsMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("practice_claims")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
        .addColumn("domain", "text", (c) => c.notNull())
        .addColumn("token", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("method", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("proved_at", "text")
        .addColumn("last_checked_at", "text")
        .addColumn("failing_since", "text")
        .addColumn("ended_at", "text")
        .addColumn("last_check", "text")
        .addColumn("note", "text")
        .execute();
      await db.schema.createIndex("practice_claims_npi").on("practice_claims").columns(["npi", "status"]).execute();
      await db.schema
        .createIndex("practice_claims_account")
        .on("practice_claims")
        .columns(["account_id", "created_at"])
        .execute();
      await db.schema
        .createIndex("practice_claims_one_owner")
        .on("practice_claims")
        .column("npi")
        .unique()
        .where(sql.ref("status"), "=", "proved")
        .execute();
      await db.schema.alterTable("jobs").addColumn("claim_id", "text").execute();
      await db.schema.alterTable("jobs").addColumn("public_result", "text").execute();
      // Every practice registered so far is its account's by the operator's word.
      await sql`insert into practice_claims (id, npi, account_id, domain, token, status, method, created_at, proved_at, note)
        select 'clm_' || npi, npi, account_id, domain, '', 'proved', 'operator', created_at, created_at,
          'registered by the operator before claims existed'
        from practices`.execute(db);
    },
  };
}
