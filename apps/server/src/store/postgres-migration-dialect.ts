import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from "kysely";

/**
 * The dialect migrations run with on PostgreSQL: Kysely's, except that its migrator's catalog lookups see only the
 * connection's own schema. Kysely's introspector reads every schema of the database (`has_schema_privilege` on each
 * name), so a schema dropped by someone else while a migration looked — another tenant's, a parallel test's — failed
 * the migration with "schema … does not exist". The migrator only asks whether its own bookkeeping tables exist.
 */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}

class OwnSchemaIntrospector implements DatabaseIntrospector {
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const rows = await sql<{ name: string }>`select current_schema() as name`.execute(this.db);
    return rows.rows.filter((r) => r.name !== null);
  }

  /** Tables and views of the current schema, without their columns (nothing here reads them). */
  async getTables(): Promise<TableMetadata[]> {
    const rows = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname`.execute(this.db);
    return rows.rows.map((r) => ({ name: r.name, schema: r.schema, isView: r.kind === "v", columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}
