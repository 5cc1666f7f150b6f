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

/** A fresh schema for one test run; dropped by the returned cleanup. */
export async function createTestSchema(): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `hcs_test_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  return {
    schema,
    async drop() {
      const c = new pg.Client({ connectionString: TEST_PG_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

/** The URL with the schema on the search path, for child processes that read DATABASE_URL. */
export function urlWithSchema(schema: string): string {
  const u = new URL(TEST_PG_URL);
  u.searchParams.set("options", `-c search_path=${schema}`);
  return u.toString();
}
