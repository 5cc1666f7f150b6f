import { type Kysely, sql } from "kysely";

/**
 * A change of owner revokes the other accounts' scanner agents and deploy tokens on the practice, in the change's
 * transaction (services/claims/ownership.ts, docs/onboarding.md#a-change-of-owner). Practices that changed owner
 * before that rule kept a former owner's enrolments live: they are revoked here, as of the migration, so the rule
 * holds for enrolments made before it too. An enrolment whose account owns its practice is not touched, nor one
 * already revoked (its first revocation time stands).
 */
export function formerOwnersEnrolmentsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const at = new Date().toISOString();
      for (const table of ["agents", "deploy_tokens"] as const)
        await sql`update ${sql.table(table)} set revoked_at = ${at}
          where revoked_at is null
            and account_id <> (select p.account_id from practices p where p.npi = ${sql.ref(`${table}.npi`)})`.execute(
          db,
        );
    },
  };
}
