import { randomBytes } from "node:crypto";
import pg from "pg";

/** The PostgreSQL tests use: DATABASE_URL, or the local server's `test` database. */
export const TEST_PG_URL = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** When HCS_TEST_PG=required (CI), a missing PostgreSQL fails the tests instead of skipping them. */
export const PG_REQUIRED = process.env.HCS_TEST_PG === "required";

/** Probes PostgreSQL once; returns null when reachable, or the reason it is not. */
export async function postgresUnavailableReason(): Promise<string | null> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return null;
  } catch (err) {
    return `PostgreSQL at ${TEST_PG_URL.replace(/:[^:@/]+@/, ":***@")} is unreachable (${(err as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Decides once per test file whether PostgreSQL tests run; prints why they are skipped. */
export async function shouldRunPostgres(): Promise<boolean> {
  const reason = await postgresUnavailableReason();
  if (reason === null) return true;
  if (PG_REQUIRED) throw new Error(`HCS_TEST_PG=required but ${reason}`);
  console.warn(`[skip] PostgreSQL tests skipped: ${reason}. Set HCS_TEST_PG=required to make this a failure.`);
  return false;
}

/** A fresh schema for one test in the test database; `url` is the database's, open stores with it and `schema`. */
export interface TestSchema {
  readonly url: string;
  readonly schema: string;
  drop(): Promise<void>;
}

/** The URL of another database on the test server (its search-path option left out). */
export function testDatabaseUrl(database: string): string {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${database}`;
  url.searchParams.delete("options");
  return url.toString();
}

/**
 * Creates a database of its own (a copy of `template`), dropped with its connections by `drop`. Dropping a database
 * makes PostgreSQL checkpoint; a schema (createTestSchema) is the cheaper fresh start where one database will do.
 */
export async function createTestDatabase(template = "template1"): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `hcs_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(`create database ${name} template ${template}`);
  return { url: testDatabaseUrl(name), drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

/** A fresh, empty schema in the test database; dropped by the returned cleanup. */
export async function createTestSchema(): Promise<TestSchema> {
  const schema = `hcs_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(`create schema ${schema}`);
  return { url: TEST_PG_URL, schema, drop: () => adminQuery(`drop schema if exists ${schema} cascade`) };
}

/** The test schema's database URL with the schema on the search path, for child processes that read DATABASE_URL. */
export function urlWithSchema(test: TestSchema): string {
  const u = new URL(test.url);
  u.searchParams.set("options", `-c search_path=${test.schema}`);
  return u.toString();
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
