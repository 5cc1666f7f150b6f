import type { Kysely } from "kysely";
import type { Engine } from "./engine.js";

/**
 * Requirement 6 (backup and 72-hour restore readiness) and 13 (audit trail) assessed from evidence
 * (docs/scoring.md §9):
 * - restore_tests: the practice's restore-test records (Group A, `POST /v1/restore-tests`): when, which system
 *   (`system_key`: its name lower-cased, what a scanner host's name is matched against), what was restored, how long
 *   it took and whether it worked;
 * - internal_results.evidence: the part of a phase's facts the requirements read (services/result-evidence.ts),
 *   kept with the host's result of that phase, since an upload's full facts are kept for the newest scans only.
 *   Results stored before have none and are judged by their findings alone until the host's next scan.
 */
export function restoreReadinessMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("restore_tests")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("tested_on", "text", (c) => c.notNull())
        .addColumn("system", "text", (c) => c.notNull())
        .addColumn("system_key", "text", (c) => c.notNull())
        .addColumn("data_restored", "text", (c) => c.notNull())
        .addColumn("time_to_restore_minutes", "integer", (c) => c.notNull())
        .addColumn("outcome", "text", (c) => c.notNull())
        .addColumn("recorded_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("restore_tests_npi")
        .on("restore_tests")
        .columns(["npi", "system_key", "tested_on"])
        .execute();
      await db.schema.alterTable("internal_results").addColumn("evidence", "text").execute();
    },
  };
}
