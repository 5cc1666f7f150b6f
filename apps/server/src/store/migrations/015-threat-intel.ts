import type { Kysely } from "kysely";
import { autoIdColumn, type Engine } from "./engine.js";

/**
 * Threat and breach intelligence (docs/intelligence.md): the public feeds an operator imports — HHS OCR breach
 * reports, the CISA KEV catalogue, endoflife.date product data — each import recorded with its source, version
 * and time; and the practice's state, which breach matching needs (the portal lists entities by name and state).
 */
export function threatIntelMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await autoIdColumn(engine, db.schema.createTable("feed_imports"))
        .addColumn("feed", "text", (c) => c.notNull())
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("version", "text", (c) => c.notNull())
        .addColumn("sha256", "text", (c) => c.notNull())
        .addColumn("records", "integer", (c) => c.notNull())
        .addColumn("changed", "integer", (c) => c.notNull())
        .addColumn("imported_at", "text", (c) => c.notNull())
        .addColumn("detail", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("feed_imports_feed").on("feed_imports").columns(["feed", "id"]).execute();

      await db.schema
        .createTable("hhs_breaches")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("entity_name", "text", (c) => c.notNull())
        .addColumn("state", "text")
        .addColumn("entity_type", "text")
        .addColumn("individuals_affected", "integer")
        .addColumn("submitted_on", "text", (c) => c.notNull())
        .addColumn("breach_types", "text", (c) => c.notNull())
        .addColumn("locations", "text", (c) => c.notNull())
        .addColumn("business_associate", "integer")
        .addColumn("description", "text")
        .addColumn("import_id", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("hhs_breaches_sector")
        .on("hhs_breaches")
        .columns(["entity_type", "state", "submitted_on"])
        .execute();

      // Every name key a report is known under (d/b/a names give several), for lookups by practice name + state.
      await db.schema
        .createTable("hhs_breach_names")
        .addColumn("name_key", "text", (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("breach_id", "text", (c) => c.notNull().references("hhs_breaches.id").onDelete("cascade"))
        .addPrimaryKeyConstraint("hhs_breach_names_pk", ["state", "name_key", "breach_id"])
        .execute();
      await db.schema.createIndex("hhs_breach_names_breach").on("hhs_breach_names").column("breach_id").execute();

      await db.schema
        .createTable("kev_entries")
        .addColumn("cve_id", "text", (c) => c.primaryKey())
        .addColumn("vendor_project", "text", (c) => c.notNull())
        .addColumn("product", "text", (c) => c.notNull())
        .addColumn("product_key", "text")
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("date_added", "text", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("required_action", "text", (c) => c.notNull())
        .addColumn("due_date", "text", (c) => c.notNull())
        .addColumn("ransomware", "text", (c) => c.notNull())
        .addColumn("notes", "text", (c) => c.notNull())
        .addColumn("cwes", "text", (c) => c.notNull())
        .addColumn("ranges", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("kev_entries_product").on("kev_entries").column("product_key").execute();

      await db.schema
        .createTable("eol_products")
        .addColumn("product", "text", (c) => c.primaryKey())
        .addColumn("cycles", "text", (c) => c.notNull())
        .addColumn("import_id", "bigint", (c) => c.notNull())
        .execute();

      await db.schema.alterTable("practices").addColumn("state", "text").execute();
    },
  };
}
