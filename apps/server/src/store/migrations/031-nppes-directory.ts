import type { Kysely } from "kysely";
import { autoIdColumn, type Engine } from "./engine.js";

/**
 * The NPPES directory (docs/onboarding.md#the-directory): every NPI CMS publishes, with its practice location,
 * taxonomy and whether it is deactivated (nppes_providers); taxonomy descriptions (nppes_taxonomies); the endpoint
 * file's endpoints and the domains they name (nppes_endpoints); and each directory import's progress, so a crashed
 * import resumes (directory_imports).
 */
export function nppesDirectoryMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await autoIdColumn(engine, db.schema.createTable("directory_imports"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("file_size", "bigint", (c) => c.notNull())
        .addColumn("fingerprint", "text", (c) => c.notNull())
        .addColumn("committed_bytes", "bigint", (c) => c.notNull())
        .addColumn("records", "integer", (c) => c.notNull())
        .addColumn("skipped", "integer", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("started_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addColumn("completed_at", "text")
        .addColumn("detail", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("directory_imports_file")
        .on("directory_imports")
        .columns(["kind", "fingerprint", "file_size"])
        .execute();

      await db.schema
        .createTable("nppes_providers")
        .addColumn("npi", "text", (c) => c.primaryKey())
        .addColumn("entity_type", "integer")
        .addColumn("name", "text")
        .addColumn("address_line1", "text")
        .addColumn("address_line2", "text")
        .addColumn("city", "text")
        .addColumn("state", "text")
        .addColumn("postal_code", "text")
        .addColumn("country_code", "text")
        .addColumn("taxonomy_code", "text")
        .addColumn("taxonomies", "text", (c) => c.notNull())
        .addColumn("practice_locations", "text", (c) => c.notNull())
        .addColumn("official_first_name", "text")
        .addColumn("official_last_name", "text")
        .addColumn("enumerated_on", "text")
        .addColumn("updated_on", "text")
        .addColumn("deactivated_on", "text")
        .addColumn("reactivated_on", "text")
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("import_id", "bigint", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("nppes_taxonomies")
        .addColumn("code", "text", (c) => c.primaryKey())
        .addColumn("description", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("nppes_endpoints")
        .addColumn("npi", "text", (c) => c.notNull())
        .addColumn("endpoint_type", "text", (c) => c.notNull())
        .addColumn("endpoint", "text", (c) => c.notNull())
        .addColumn("domain", "text")
        .addColumn("affiliated", "integer", (c) => c.notNull())
        .addColumn("import_id", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("nppes_endpoints_pk", ["npi", "endpoint_type", "endpoint"])
        .execute();
    },
  };
}
