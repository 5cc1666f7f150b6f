import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Kysely, Migrator } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { createTestSchema, shouldRunPostgres, TEST_PG_URL } from "../../test-support/postgres.js";
import { openStore, type Store } from "../store.js";
import { migrationsFor } from "./index.js";

const MIGRATION = "004-scan-upload-summary";
const AT = "2026-11-22T01:00:00.000Z";

/** An upload as stored before the migration: the whole raw document. */
const rawDocument = {
  schema_version: 1,
  scan_id: "5b0e6b8e-3a51-4d7e-9a33-2f4f1c2c9a10",
  agent_id: "agt_AAAAAAAAAAAAAAAA",
  scanner_version: "0.1.0",
  host: { hostname: "frontdesk-01", platform: "linux", os_name: "Debian GNU/Linux", os_version: "12", arch: "x64" },
  scope: { mode: "host", targets: [] },
  started_at: "2026-11-22T00:59:00.000Z",
  completed_at: "2026-11-22T01:00:05.000Z",
  phases: [
    {
      id: "disk_encryption",
      status: "ok",
      duration_ms: 40,
      facts: { volumes: 2 },
      findings: [{ id: "disk_encryption.unencrypted_volume:/", title: "Fixed volume / is not encrypted" }],
    },
    { id: "mfa", status: "unsupported", duration_ms: 0, reason: "not on this platform", facts: {}, findings: [] },
  ],
};

/** Migration 004 on every engine: existing raw documents become a summary and facts; the document column goes. */
function migrationSuite(
  engine: "sqlite" | "postgres",
  open: () => Promise<{ store: Store; cleanup(): Promise<void> }>,
) {
  describe(`${MIGRATION} on ${engine}`, () => {
    let opened: { store: Store; cleanup(): Promise<void> } | null = null;
    afterAll(async () => {
      await opened?.store.close();
      await opened?.cleanup();
    });

    it("converts stored raw documents into a summary and facts, and drops the raw document", async () => {
      opened = await open();
      const { store } = opened;
      const before = Object.fromEntries(Object.entries(migrationsFor(engine)).filter(([name]) => name < MIGRATION));
      const { error } = await new Migrator({
        db: store.db,
        provider: { getMigrations: async () => before },
      }).migrateToLatest();
      expect(error).toBeUndefined();

      // The tables as they were before the migration (raw rows: the typed schema already describes the new one).
      const db = store.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      await db
        .insertInto("accounts")
        .values({
          id: "acc_1",
          name: "A",
          plan: "professional",
          tier: "standard",
          credits: 0,
          webhook_secret_enc: "x",
          created_at: AT,
        })
        .execute();
      await db
        .insertInto("practices")
        .values({ npi: "1234567893", account_id: "acc_1", name: "P", domain: "p.example", created_at: AT })
        .execute();
      await db
        .insertInto("deploy_tokens")
        .values({
          id: "dt_1",
          token_hash: "h",
          npi: "1234567893",
          account_id: "acc_1",
          created_at: AT,
          expires_at: AT,
          max_uses: 1,
          uses: 1,
        })
        .execute();
      await db
        .insertInto("agents")
        .values({
          id: rawDocument.agent_id,
          npi: "1234567893",
          account_id: "acc_1",
          deploy_token_id: "dt_1",
          public_key: "k",
          hostname: "frontdesk-01",
          platform: "linux",
          scanner_version: "0.1.0",
          ephemeral: 0,
          registered_at: AT,
        })
        .execute();
      await db
        .insertInto("scan_uploads")
        .values({
          scan_id: rawDocument.scan_id,
          agent_id: rawDocument.agent_id,
          npi: "1234567893",
          body_sha256: "a".repeat(64),
          received_at: AT,
          document: JSON.stringify(rawDocument),
          acceptance: '{"duplicate":false}',
        })
        .execute();

      expect(await store.migrate()).toContain(MIGRATION);
      const row = await store.db.selectFrom("scan_uploads").selectAll().executeTakeFirstOrThrow();
      expect(Object.keys(row)).not.toContain("document");
      expect(row).toMatchObject({
        scan_id: rawDocument.scan_id,
        body_sha256: "a".repeat(64),
        acceptance: '{"duplicate":false}',
        completed_at: rawDocument.completed_at,
      });
      expect(JSON.parse(row.summary)).toEqual({
        scanner_version: "0.1.0",
        host: rawDocument.host,
        scope: rawDocument.scope,
        started_at: rawDocument.started_at,
        completed_at: rawDocument.completed_at,
        phases: [
          { id: "disk_encryption", status: "ok", duration_ms: 40, findings: 1 },
          { id: "mfa", status: "unsupported", duration_ms: 0, reason: "not on this platform", findings: 0 },
        ],
      });
      expect(JSON.parse(row.facts!)).toEqual({ disk_encryption: { volumes: 2 }, mfa: {} });
    });
  });
}

migrationSuite("sqlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "hcs-migration-"));
  return {
    store: openStore({ engine: "sqlite", file: join(dir, "test.sqlite") }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

const runPg = await shouldRunPostgres();
describe.skipIf(!runPg)("postgres", () => {
  migrationSuite("postgres", async () => {
    const { schema, drop } = await createTestSchema();
    return { store: openStore({ engine: "postgres", url: TEST_PG_URL, schema }), cleanup: drop };
  });
});
