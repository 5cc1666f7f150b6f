import { type Kysely, type Selectable, sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { auditLeafHash, auditRecordOf } from "../../services/audit.js";
import { forEachEngine, type OpenTestStore } from "../../test-support/store-engines.js";
import type { AuditEventsTable } from "../schema.js";
import type { Store } from "../store.js";
import type { Engine } from "./engine.js";

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

type RawDb = Kysely<Record<string, Record<string, unknown>>>;

/** An account as a row (its columns have not changed since 001). */
async function seedAccount(
  db: RawDb,
  id: string,
  o: { plan?: string; tier?: string; credits?: number; createdAt?: string } = {},
): Promise<void> {
  await db
    .insertInto("accounts")
    .values({
      id,
      name: id,
      plan: o.plan ?? "professional",
      tier: o.tier ?? "standard",
      credits: o.credits ?? 0,
      webhook_secret_enc: "x",
      created_at: o.createdAt ?? AT,
    })
    .execute();
}

/** An account and its practice, as rows (the tables these two have not changed since 001). */
async function seedPractice(db: RawDb): Promise<void> {
  await seedAccount(db, "acc_1");
  await db
    .insertInto("practices")
    .values({ npi: "1234567893", account_id: "acc_1", name: "P", domain: "p.example", created_at: AT })
    .execute();
}

/** Migrations that convert existing rows, on every engine: rows written before them come out right. */
function migrationSuite(engine: Engine, open: OpenTestStore) {
  describe(`migrations on ${engine}`, () => {
    const opened: { store: Store; cleanup(): Promise<void> }[] = [];
    const fresh = async () => {
      const o = await open();
      opened.push(o);
      return o.store;
    };
    afterAll(async () => {
      for (const o of opened) {
        await o.store.close();
        await o.cleanup();
      }
    });

    it(`${MIGRATION} converts stored raw documents into a summary and facts, and drops the raw document`, async () => {
      const store = await fresh();
      await store.migrate("003-agents");

      // The tables as they were before the migration (raw rows: the typed schema already describes the new one).
      const db = store.db as unknown as RawDb;
      await seedPractice(db);
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

    it("017-internal-results carries over each host's latest completed result per phase and each finding's phase", async () => {
      const store = await fresh();
      await store.migrate("014-audit-append-cost");
      const db = store.db as unknown as RawDb;
      await seedPractice(db);
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
          id: "agt_1",
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
      const summary = (completed: string, phases: [string, string][], scope: object) =>
        JSON.stringify({
          scanner_version: "0.1.0",
          host: { ...rawDocument.host, hostname: "FrontDesk-01" },
          scope,
          started_at: completed,
          completed_at: completed,
          phases: phases.map(([id, status]) => ({ id, status, duration_ms: 1, findings: 0 })),
        });
      const upload = (n: number, completed: string, received: string, phases: [string, string][], scope: object) =>
        db
          .insertInto("scan_uploads")
          .values({
            scan_id: `00000000-0000-4000-8000-00000000000${n}`,
            agent_id: "agt_1",
            npi: "1234567893",
            body_sha256: "a".repeat(64),
            received_at: received,
            completed_at: completed,
            summary: summary(completed, phases, scope),
            facts: null,
            acceptance: "{}",
          })
          .execute();
      // A full scan, then a narrow one (ports only, another scope), whose disk phase failed.
      await upload(
        1,
        "2026-11-20T00:00:00.000Z",
        "2026-11-20T00:00:01.000Z",
        [
          ["disk_encryption", "ok"],
          ["ports", "ok"],
          ["mfa", "unsupported"],
        ],
        { mode: "host", targets: [] },
      );
      await upload(
        2,
        "2026-11-22T00:00:00.000Z",
        "2026-11-21T00:00:00.000Z",
        [
          ["ports", "ok"],
          ["disk_encryption", "failed"],
        ],
        { mode: "targets", targets: ["10.0.0.0/24"] },
      );
      const finding = (id: string, check: string, source = "internal") => ({
        npi: "1234567893",
        source,
        subject: "frontdesk-01",
        finding_id: id,
        check_id: check,
        category: "encryption",
        severity: "critical",
        title: "t",
        detail: "d",
        evidence: "{}",
        remediation: "r",
        controls: "[]",
        first_seen: AT,
        last_seen: AT,
      });
      await db.insertInto("findings").values(finding("f1", "disk_encryption.unencrypted_volume")).execute();
      await db.insertInto("findings").values(finding("f2", "custom.check")).execute();
      await db
        .insertInto("findings")
        .values(finding("f3", "tls.legacy", "external"))
        .execute();

      expect(await store.migrate()).toContain("017-internal-results");
      const results = await store.db.selectFrom("internal_results").selectAll().orderBy("phase").execute();
      expect(
        results.map((r) => [r.subject, r.phase, r.assessed_at, r.scan_id.slice(-1), JSON.parse(r.scope).mode]),
      ).toEqual([
        ["frontdesk-01", "disk_encryption", "2026-11-20T00:00:00.000Z", "1", "host"],
        // Dated by its arrival, which came before its stated completion.
        ["frontdesk-01", "ports", "2026-11-21T00:00:00.000Z", "2", "targets"],
      ]);
      const phases = await store.db
        .selectFrom("findings")
        .select(["finding_id", "phase"])
        .orderBy("finding_id")
        .execute();
      expect(phases).toEqual([
        { finding_id: "f1", phase: "disk_encryption" },
        { finding_id: "f2", phase: null },
        { finding_id: "f3", phase: null },
      ]);
    });

    it("008-audit-record-v1 re-hashes existing events as salted v1 records and moves address and duration aside", async () => {
      const store = await fresh();
      await store.migrate("007-job-a2a-context");
      const db = store.db as unknown as RawDb;
      const old = (n: number) => ({
        at: `2026-11-22T01:00:0${n}.000Z`,
        request_id: `req-${n}`,
        actor_key_id: n === 1 ? null : "key_1",
        actor_account_id: n === 1 ? null : "acc_1",
        action: "hipaa.grade",
        transport: "rest",
        resource: "practice:1234567893",
        outcome: "success",
        status: 200,
        client_ip: `127.0.0.${n}`,
        duration_ms: n + 0.5,
        leaf_hash: "f".repeat(64),
      });
      for (const n of [1, 2, 3]) await db.insertInto("audit_events").values(old(n)).execute();

      expect(await store.migrate("008-audit-record-v1")).toContain("008-audit-record-v1");
      const rows = await store.db.selectFrom("audit_trail").selectAll().orderBy("id").execute();
      expect(rows.map((r) => [r.request_id, r.client_ip, Number(r.duration_ms)])).toEqual([
        ["req-1", "127.0.0.1", 1.5],
        ["req-2", "127.0.0.2", 2.5],
        ["req-3", "127.0.0.3", 3.5],
      ]);
      // Read raw: migration 018 later moves leaf hashes out of audit_events.
      const events = (
        await sql<Selectable<AuditEventsTable> & { leaf_hash: string }>`select * from audit_events order by id`.execute(
          store.db,
        )
      ).rows;
      expect(Object.keys(events[0]!)).not.toContain("client_ip");
      expect(new Set(events.map((e) => e.salt)).size).toBe(3);
      for (const e of events) {
        expect(e.code).toBeNull();
        expect(e.leaf_hash).toBe(auditLeafHash(auditRecordOf({ ...e, status: Number(e.status) }, e.salt)));
      }
    });

    it("033-account-plans gives every existing account its current plan since its creation", async () => {
      const store = await fresh();
      await store.migrate("029-restore-readiness");
      const db = store.db as unknown as RawDb;
      await seedPractice(db);
      await seedAccount(db, "acc_2", {
        plan: "free",
        tier: "bulk",
        credits: 500,
        createdAt: "2026-11-23T08:00:00.000Z",
      });
      expect(await store.migrate()).toContain("033-account-plans");
      const rows = await store.db.selectFrom("account_plans").selectAll().orderBy("id").execute();
      expect(rows.map((r) => [r.account_id, r.plan, r.started_at])).toEqual([
        ["acc_1", "professional", AT],
        ["acc_2", "free", "2026-11-23T08:00:00.000Z"],
      ]);
    });

    it("034 revokes the scanners and deploy tokens of accounts that no longer own their practice", async () => {
      const store = await fresh();
      await store.migrate("033-account-plans");
      const db = store.db as unknown as RawDb;
      // acc_1 owns the practice now; acc_2 owned it before and kept its enrolments.
      await seedPractice(db);
      await seedAccount(db, "acc_2");
      const EARLIER = "2026-11-23T09:00:00.000Z";
      for (const [id, account, revoked] of [
        ["dt_owner", "acc_1", null],
        ["dt_former", "acc_2", null],
        ["dt_former_revoked", "acc_2", EARLIER],
      ] as const)
        await db
          .insertInto("deploy_tokens")
          .values({
            id,
            token_hash: id,
            npi: "1234567893",
            account_id: account,
            created_at: AT,
            expires_at: "2026-12-30T00:00:00.000Z",
            max_uses: 5,
            uses: 1,
            revoked_at: revoked,
          })
          .execute();
      for (const [id, account, token, revoked] of [
        ["agt_owner", "acc_1", "dt_owner", null],
        ["agt_former", "acc_2", "dt_former", null],
        ["agt_former_revoked", "acc_2", "dt_former_revoked", EARLIER],
      ] as const)
        await db
          .insertInto("agents")
          .values({
            id,
            npi: "1234567893",
            account_id: account,
            deploy_token_id: token,
            public_key: id,
            hostname: "frontdesk-01",
            platform: "linux",
            scanner_version: "0.1.0",
            ephemeral: 0,
            registered_at: AT,
            revoked_at: revoked,
          })
          .execute();
      const before = new Date().toISOString();
      expect(await store.migrate()).toContain("034-former-owners-enrolments");
      for (const table of ["agents", "deploy_tokens"] as const) {
        const rows = await store.db.selectFrom(table).select(["id", "revoked_at"]).orderBy("id").execute();
        const revoked = new Map(rows.map((r) => [r.id, r.revoked_at]));
        const prefix = table === "agents" ? "agt" : "dt";
        expect(revoked.get(`${prefix}_owner`), table).toBeNull();
        expect(revoked.get(`${prefix}_former_revoked`), table).toBe(EARLIER);
        expect(revoked.get(`${prefix}_former`)! >= before, table).toBe(true);
      }
    });

    it("005-webhook-receiver names the receiver (callback origin) of every queued delivery", async () => {
      const store = await fresh();
      await store.migrate("004-scan-upload-summary");
      const db = store.db as unknown as RawDb;
      await seedPractice(db);
      await db
        .insertInto("jobs")
        .values({
          id: "job_1",
          account_id: "acc_1",
          npi: "1234567893",
          scan_type: "full",
          status: "completed",
          attempts: 1,
          max_attempts: 3,
          run_after: AT,
          created_at: AT,
          credits_charged: 150,
        })
        .execute();
      const urls = {
        d1: "https://Hooks.Example.org:443/a?x=1",
        d2: "https://hooks.example.org:8443/b",
        d3: "not a url",
      };
      for (const [id, url] of Object.entries(urls)) {
        await db
          .insertInto("webhook_deliveries")
          .values({
            id,
            job_id: "job_1",
            account_id: "acc_1",
            event: "job.completed",
            url,
            body: "{}",
            status: "pending",
            attempts: 0,
            next_attempt_at: AT,
            created_at: AT,
            give_up_at: AT,
          })
          .execute();
      }
      expect(await store.migrate()).toContain("005-webhook-receiver");
      const rows = await store.db.selectFrom("webhook_deliveries").select(["id", "receiver"]).orderBy("id").execute();
      expect(rows).toEqual([
        { id: "d1", receiver: "https://hooks.example.org" },
        { id: "d2", receiver: "https://hooks.example.org:8443" },
        { id: "d3", receiver: "not a url" },
      ]);
    });
  });
}

forEachEngine(migrationSuite);
