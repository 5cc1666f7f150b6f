import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openStore } from "../store/store.js";
import { createTestDatabase, TEST_PG_URL, testDatabaseUrl } from "./postgres.js";

/**
 * A migrated database for each test server, copied from one template instead of migrating every time (29 migrations
 * cost a PostgreSQL test server about a second; `CREATE DATABASE … TEMPLATE` costs 20–60 ms).
 *
 * The template is named after the migrations' source (a hash of `store/migrations/*.ts`), so a change to any
 * migration makes a new one and a stale copy is never used. PostgreSQL templates (`hcs_tpl_<hash>`) outlive the run
 * and are shared by every test process on the machine (created once, under an advisory lock); any of them may be
 * dropped at any time. The SQLite template is a file made once per test process.
 */

const MIGRATIONS_DIR = join(import.meta.dirname, "..", "store", "migrations");

function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const name of readdirSync(MIGRATIONS_DIR).sort()) {
    if (!name.endsWith(".ts") || name.endsWith(".test.ts")) continue;
    hash
      .update(name)
      .update("\0")
      .update(readFileSync(join(MIGRATIONS_DIR, name)))
      .update("\0");
  }
  return hash.digest("hex").slice(0, 12);
}

let sqliteTemplate: string | null = null;

/** Puts a migrated `hcs.sqlite` in `dataDir` (mode 0600, as the server makes it), copied from this process's template. */
export async function copyMigratedSqlite(dataDir: string): Promise<void> {
  if (!sqliteTemplate || !existsSync(sqliteTemplate)) {
    const file = join(mkdtempSync(join(tmpdir(), "hcs-sqlite-template-")), "hcs.sqlite");
    const store = openStore({ engine: "sqlite", file });
    await store.migrate();
    await store.close(); // closing checkpoints the WAL into the file: the copy is the whole database
    sqliteTemplate = file;
  }
  const target = join(dataDir, "hcs.sqlite");
  copyFileSync(sqliteTemplate, target);
  chmodSync(target, 0o600);
}

let pgTemplate: Promise<string> | null = null;

async function ensurePgTemplate(): Promise<string> {
  const name = `hcs_tpl_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  try {
    // One creator at a time across every test process; the others wait here and then find it made.
    await admin.query("select pg_advisory_lock(hashtext('hcs test template'))");
    const found = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) {
      // Migrated under another name and renamed when complete: a process that died half-way leaves no template.
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const store = openStore({ engine: "postgres", url: testDatabaseUrl(building) });
      try {
        await store.migrate();
      } finally {
        await store.close();
      }
      await admin.query(`alter database ${building} rename to ${name}`);
    }
    await admin.query("select pg_advisory_unlock(hashtext('hcs test template'))");
  } finally {
    await admin.end();
  }
  return name;
}

/** A fresh, migrated PostgreSQL database of its own; `drop` removes it (its connections too). */
export async function createMigratedTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  pgTemplate ??= ensurePgTemplate().catch((err: unknown) => {
    pgTemplate = null;
    throw err;
  });
  return createTestDatabase(await pgTemplate);
}
