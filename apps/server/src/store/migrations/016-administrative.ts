import type { Kysely } from "kysely";
import { autoIdColumn, type Engine } from "./engine.js";

/**
 * The practice's administrative records (docs/administrative.md): its profile facts, security incidents with the
 * breach assessment, the versions of its 24 policies, the risk-assessment questionnaire responses and SRA reports,
 * the workforce roster with training completions, and its business associates. Structured parts are kept as JSON
 * text (one representation on both engines); the columns that queries filter on are columns of their own.
 */
export function administrativeMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("practice_profiles")
        .addColumn("npi", "text", (c) => c.primaryKey().references("practices.npi"))
        .addColumn("profile", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("incidents")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("discovered_on", "text", (c) => c.notNull())
        .addColumn("record", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("incidents_npi").on("incidents").columns(["npi", "discovered_on"]).execute();

      await db.schema
        .createTable("policy_documents")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("policy_number", "integer", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("markdown", "text", (c) => c.notNull())
        .addColumn("citations", "text", (c) => c.notNull())
        .addColumn("generated_at", "text", (c) => c.notNull())
        .addUniqueConstraint("policy_documents_version", ["npi", "policy_number", "version"])
        .execute();

      await db.schema
        .createTable("risk_assessments")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        // questionnaire (submitted responses) or sra (the NIST SP 800-30 report)
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addUniqueConstraint("risk_assessments_version", ["npi", "kind", "version"])
        .execute();

      await db.schema
        .createTable("workforce_members")
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("member_id", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("hired_on", "text", (c) => c.notNull())
        .addColumn("terminated_on", "text")
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("workforce_members_pk", ["npi", "member_id"])
        .execute();

      await autoIdColumn(engine, db.schema.createTable("training_completions"))
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("member_id", "text", (c) => c.notNull())
        .addColumn("course", "text", (c) => c.notNull())
        .addColumn("completed_on", "text", (c) => c.notNull())
        .addColumn("recorded_at", "text", (c) => c.notNull())
        .addUniqueConstraint("training_completions_once", ["npi", "member_id", "course", "completed_on"])
        .execute();

      await db.schema
        .createTable("business_associates")
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("vendor_id", "text", (c) => c.notNull())
        .addColumn("record", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("business_associates_pk", ["npi", "vendor_id"])
        .execute();

      // A vendor domain's external grade, shared by every practice that uses the vendor and reused for 30 days.
      await db.schema
        .createTable("vendor_domain_grades")
        .addColumn("domain", "text", (c) => c.primaryKey())
        .addColumn("grade", "text")
        .addColumn("score", "integer")
        .addColumn("detail", "text", (c) => c.notNull())
        .addColumn("scanned_at", "text", (c) => c.notNull())
        .execute();
    },
  };
}
