import type { Kysely } from "kysely";
import type { Engine } from "./engine.js";

/**
 * What a completed scan's report rests on besides its result, kept when the job completes (reports/scan-basis.ts):
 * the grade row the scan appended and the 13 requirements with the assessments they read, as of the scan's
 * completion. Without it a report read later would pair the scan's grade with requirements read at another moment.
 * Jobs completed before have none (their reports say so where it matters).
 */
export function jobReportBasisMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("jobs").addColumn("report_basis", "text").execute();
    },
  };
}
