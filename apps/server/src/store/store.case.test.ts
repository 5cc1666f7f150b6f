import { type FindingParsed, SCORING_VERSION } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isServiceError } from "../errors.js";
import { countRequest, windowCounters } from "../http/rate-limit.js";
import { createSecretBox } from "../secrets/master-key.js";
import { createAccount, getAccount, rotateWebhookSecret, webhookSecretOf } from "../services/accounts.js";
import { authenticateApiKey, issueApiKey, revokeApiKey } from "../services/api-keys.js";
import { appendAuditEvent, auditLeafHash } from "../services/audit.js";
import { bootstrapOperatorAccount } from "../services/bootstrap.js";
import { chargeCredits } from "../services/credits.js";
import type { ServiceDeps } from "../services/deps.js";
import { gradeForNpi, openFindings, recordAssessment, regradeAfterScoringChange } from "../services/grades.js";
import { addPractice } from "../services/practices.js";
import { computeReputation } from "../services/reputation.js";
import { completedJobRow } from "../test-support/fixtures.js";
import { forEachEngine, type OpenTestStore } from "../test-support/store-engines.js";
import type { Engine } from "./migrations/engine.js";
import type { Store } from "./store.js";

/**
 * One conformance suite, run against every engine (DESIGN §4): the same queries must behave the same on the
 * embedded SQLite default and on PostgreSQL.
 */
function storeSuite(engine: Engine, open: OpenTestStore) {
  describe(`store on ${engine}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let deps: ServiceDeps;
    let clock = new Date("2026-11-22T10:00:30.000Z");

    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await store.migrate();
      deps = { store, now: () => clock, secrets: createSecretBox(Buffer.alloc(32, 7)) };
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    const finding = (id: string, over: Partial<FindingParsed> = {}): FindingParsed => ({
      id,
      check_id: id.split(":")[0]!,
      source: "external",
      category: "email_security",
      severity: "high",
      title: `title ${id}`,
      detail: "detail",
      evidence: { record: "v=DMARC1; p=none" },
      remediation: "fix it",
      controls: ["164.312(e)(1)"],
      ...over,
    });

    it("migrations are idempotent", async () => {
      expect(await store.migrate()).toEqual([]);
    });

    it("creates accounts with an opening ledger row and an encrypted webhook secret", async () => {
      const { account, webhookSecret } = await createAccount(deps, {
        name: "A",
        plan: "free",
        tier: "standard",
        credits: 500,
      });
      expect(account.credits).toBe(500);
      const ledger = await store.db
        .selectFrom("credit_ledger")
        .selectAll()
        .where("account_id", "=", account.id)
        .execute();
      expect(ledger).toEqual([
        expect.objectContaining({ delta: 500, balance_after: 500, operation: "opening_balance" }),
      ]);
      const raw = await store.db
        .selectFrom("accounts")
        .select("webhook_secret_enc")
        .where("id", "=", account.id)
        .executeTakeFirstOrThrow();
      expect(raw.webhook_secret_enc).not.toContain(webhookSecret);
      expect(await webhookSecretOf(deps, account.id)).toBe(webhookSecret);
      const rotated = await rotateWebhookSecret(deps, account.id);
      expect(rotated).not.toBe(webhookSecret);
      expect(await webhookSecretOf(deps, account.id)).toBe(rotated);
    });

    it("issues, authenticates, expires and revokes keys; stores only hashes", async () => {
      const { account } = await createAccount(deps, { name: "K", plan: "professional", tier: "bulk", credits: 0 });
      const { apiKey, keyId } = await issueApiKey(deps, { accountId: account.id });
      expect(apiKey).toMatch(/^hcs_live_[0-9A-Za-z]{12}_[0-9A-Za-z]{32}$/);
      const rows = await store.db.selectFrom("api_keys").selectAll().execute();
      for (const r of rows) expect(JSON.stringify(r)).not.toContain(apiKey.split("_").at(-1));
      expect(await authenticateApiKey(deps, apiKey)).toEqual({
        keyId,
        accountId: account.id,
        plan: "professional",
        tier: "bulk",
      });
      // One character of the secret changed (never to itself: a key ending in X would otherwise be "changed" to itself).
      const altered = `${apiKey.slice(0, -1)}${apiKey.endsWith("X") ? "Y" : "X"}`;
      await expect(authenticateApiKey(deps, altered)).rejects.toMatchObject({
        code: "invalid_credentials",
      });
      await expect(authenticateApiKey(deps, "hcs_live_nope")).rejects.toMatchObject({ code: "invalid_credentials" });
      const expiring = await issueApiKey(deps, { accountId: account.id, expiresAt: new Date(clock.getTime() + 1000) });
      await authenticateApiKey(deps, expiring.apiKey);
      const saved = clock;
      clock = new Date(clock.getTime() + 2000);
      await expect(authenticateApiKey(deps, expiring.apiKey)).rejects.toMatchObject({ code: "invalid_credentials" });
      clock = saved;
      await revokeApiKey(deps, keyId);
      await expect(authenticateApiKey(deps, apiKey)).rejects.toMatchObject({ code: "key_revoked" });
      await expect(revokeApiKey(deps, "key_missing")).rejects.toMatchObject({ code: "not_found" });
    });

    it("refuses invalid practices and duplicate NPIs", async () => {
      const { account } = await createAccount(deps, { name: "P", plan: "free", tier: "standard", credits: 0 });
      await addPractice(deps, { npi: "1245319599", name: "Clinic", domain: "Clinic.Example", accountId: account.id });
      await expect(
        addPractice(deps, { npi: "1245319599", name: "Again", domain: "x.example", accountId: account.id }),
      ).rejects.toMatchObject({ code: "conflict" });
      await expect(
        addPractice(deps, { npi: "1245319590", name: "Bad", domain: "x.example", accountId: account.id }),
      ).rejects.toMatchObject({ code: "invalid_npi" });
      await expect(
        addPractice(deps, { npi: "1003000126", name: "Bad", domain: "not a domain", accountId: account.id }),
      ).rejects.toMatchObject({ code: "invalid_body" });
      await expect(
        addPractice(deps, {
          npi: "1003000126",
          name: "Bad",
          domain: "x.example",
          website: "ftp://x",
          accountId: account.id,
        }),
      ).rejects.toMatchObject({ code: "invalid_body" });
      const stored = await store.db
        .selectFrom("practices")
        .selectAll()
        .where("npi", "=", "1245319599")
        .executeTakeFirstOrThrow();
      expect(stored.domain).toBe("clinic.example");
    });

    it("never overspends credits under concurrency; ledger and balance agree", async () => {
      const { account } = await createAccount(deps, { name: "C", plan: "free", tier: "standard", credits: 500 });
      const at = clock.toISOString();
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          store.writes.run((trx) =>
            chargeCredits(store.hot, trx, {
              accountId: account.id,
              amount: 25,
              operation: "grade",
              reference: `r${i}`,
              at,
            }),
          ),
        ),
      );
      expect(results.filter((r) => r.charged)).toHaveLength(20);
      expect((await getAccount(deps, account.id)).credits).toBe(0);
      const ledger = await store.db
        .selectFrom("credit_ledger")
        .selectAll()
        .where("account_id", "=", account.id)
        .orderBy("id")
        .execute();
      expect(ledger.reduce((s, r) => s + r.delta, 0)).toBe(0);
      expect(ledger.filter((r) => r.operation === "grade")).toHaveLength(20);
      expect(ledger.at(-1)?.balance_after).toBe(0);
    });

    it("a failing op in a write batch fails alone", async () => {
      const ok = store.writes.run(async (trx) => {
        await trx.insertInto("server_meta").values({ key: "batch-ok", value: "1" }).execute();
        return "ok";
      });
      const bad = store.writes.run(async (trx) => {
        await trx.insertInto("server_meta").values({ key: "batch-bad", value: "1" }).execute();
        throw new Error("boom");
      });
      await expect(ok).resolves.toBe("ok");
      await expect(bad).rejects.toThrow("boom");
      const keys = (await store.db.selectFrom("server_meta").select("key").execute()).map((r) => r.key);
      expect(keys).toContain("batch-ok");
      expect(keys).not.toContain("batch-bad");
    });

    it("coalesces a group commit's increments of one counter into one write, each op getting its own count", async () => {
      const policy = { bucket: "test:coalesce", windows: [{ limit: 100, windowMs: 60_000 }] };
      const nowMs = clock.getTime();
      const counters = () => windowCounters(store.hot, policy, nowMs);
      let writes = 0;
      const counted = () =>
        counters().map((c) => ({
          ...c,
          add: (trx: Parameters<typeof c.add>[0], n: number) => {
            writes++;
            return c.add(trx, n);
          },
        }));
      // Ten ops in one event-loop turn share one transaction: one write of +10, counts 1..10 in submission order.
      const counts = await Promise.all(
        Array.from({ length: 10 }, () => store.writes.run(async (_trx, c) => c[0]!, counted())),
      );
      expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(writes).toBe(1);
      // One op of a batch fails: the batch rolls back and each op runs alone, counting itself; nothing is lost or
      // counted twice.
      writes = 0;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 4 }, (_, i) =>
          store.writes.run(async (_trx, c) => {
            if (i === 1) throw new Error("this op fails");
            return c[0]!;
          }, counted()),
        ),
      );
      expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : "failed"))).toEqual([11, "failed", 12, 13]);
      const [row] = await store.hot.all<{ count: number }>(store.db, "select count from rate_limits where bucket = ?", [
        "test:coalesce:60000",
      ]);
      expect(Number(row!.count)).toBe(13);
    });

    it("counts rate-limit windows per bucket and window", async () => {
      const policy = {
        bucket: "test:key",
        windows: [
          { limit: 3, windowMs: 60_000 },
          { limit: 10, windowMs: 3_600_000 },
        ],
      };
      const counts = [];
      for (let i = 0; i < 4; i++) counts.push((await countRequest(deps, policy)).map((w) => w.count));
      expect(counts).toEqual([
        [1, 1],
        [2, 2],
        [3, 3],
        [4, 4],
      ]);
      const parallel = await Promise.all(
        Array.from({ length: 20 }, () =>
          countRequest(deps, { bucket: "test:par", windows: [{ limit: 5, windowMs: 60_000 }] }),
        ),
      );
      expect(parallel.map((p) => p[0]!.count).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
      const [w] = await countRequest(deps, { bucket: "test:par", windows: [{ limit: 5, windowMs: 60_000 }] });
      expect(w!.resetAtMs).toBe(Date.parse("2026-11-22T10:01:00.000Z"));
    });

    it("records assessments, tracks findings across scans and keeps a grade history", async () => {
      const { account } = await createAccount(deps, { name: "G", plan: "professional", tier: "standard", credits: 0 });
      await addPractice(deps, {
        npi: "1234567893",
        name: "Graded Clinic",
        domain: "graded.example",
        accountId: account.id,
      });
      await expect(gradeForNpi(deps, "1234567893")).rejects.toMatchObject({ code: "no_grade_yet" });
      await expect(gradeForNpi(deps, "1679576722")).rejects.toMatchObject({ code: "npi_not_found" });

      const t1 = new Date("2026-11-20T00:00:00.000Z");
      const g1 = await recordAssessment(deps, {
        npi: "1234567893",
        source: "external",
        subject: "graded.example",
        categories: ["email_security", "application_security", "privacy_compliance"],
        findings: [
          finding("email.dmarc_missing:graded.example"),
          finding("tls.legacy:graded.example", {
            category: "application_security",
            severity: "medium",
            grade_cap: "legacy_tls",
          }),
        ],
        at: t1,
        reference: "job-1",
      });
      // email 80×10 + app 90×15 + privacy 100×10 = 3150/35 = 90 → capped to 89 by legacy_tls
      expect(g1).toMatchObject({
        compliance_score: 89,
        grade: "B",
        scan_date: t1.toISOString(),
        scoring_version: SCORING_VERSION,
      });
      expect(g1.caps_applied.map((c) => c.id)).toEqual(["legacy_tls"]);

      const t2 = new Date("2026-11-21T00:00:00.000Z");
      const g2 = await recordAssessment(deps, {
        npi: "1234567893",
        source: "internal",
        subject: "frontdesk-01",
        categories: ["encryption", "contingency"],
        findings: [
          finding("disk.unencrypted:frontdesk-01:/", {
            source: "internal",
            category: "encryption",
            severity: "critical",
            host: "frontdesk-01",
            grade_cap: "unencrypted_ephi_device",
          }),
        ],
        at: t2,
        reference: "scan-1",
      });
      expect(g2.coverage.internal.status).toBe("partial");
      expect(g2.categories.encryption).toEqual({ score: 60, weight: 15 });
      expect(g2.grade).toBe("C");

      // A rescan of the external surface that no longer sees the TLS problem resolves it and keeps DMARC's first_seen.
      const t3 = new Date("2026-11-22T00:00:00.000Z");
      await recordAssessment(deps, {
        npi: "1234567893",
        source: "external",
        subject: "graded.example",
        categories: ["email_security", "application_security", "privacy_compliance"],
        findings: [finding("email.dmarc_missing:graded.example")],
        at: t3,
        reference: "job-2",
      });
      const open = await openFindings(deps.store.db, "1234567893");
      expect(open.map((f) => f.id).sort()).toEqual([
        "disk.unencrypted:frontdesk-01:/",
        "email.dmarc_missing:graded.example",
      ]);
      const dmarc = open.find((f) => f.id.startsWith("email"))!;
      expect(dmarc.first_seen).toBe(t1.toISOString());
      expect(dmarc.last_seen).toBe(t3.toISOString());
      const history = await store.db
        .selectFrom("grades")
        .select(["id", "grade"])
        .where("npi", "=", "1234567893")
        .orderBy("id")
        .execute();
      expect(history).toHaveLength(3);
      expect((await gradeForNpi(deps, "1234567893")).scan_date).toBe(t3.toISOString());
    });

    it("scores a finding only in a category its subject assessed (unassessed notes stay as findings)", async () => {
      const { account } = await createAccount(deps, { name: "U", plan: "free", tier: "standard", credits: 0 });
      await addPractice(deps, {
        npi: "1306849450",
        name: "Partly Scanned",
        domain: "partly.example",
        accountId: account.id,
      });
      const g = await recordAssessment(deps, {
        npi: "1306849450",
        source: "external",
        subject: "partly.example",
        categories: ["email_security"],
        findings: [finding("site.not_assessed:partly.example", { category: "privacy_compliance", severity: "info" })],
        at: clock,
        reference: null,
      });
      expect(Object.keys(g.categories)).toEqual(["email_security"]);
      expect((await openFindings(deps.store.db, "1306849450")).map((f) => f.category)).toEqual(["privacy_compliance"]);
    });

    it("serves a grade made by an older scoring version recomputed, without writing, however many read it", async () => {
      await store.db
        .updateTable("grades")
        .set({ scoring_version: "hcs-score-old" })
        .where("npi", "=", "1234567893")
        .execute();
      const before = await store.db.selectFrom("grades").select("id").where("npi", "=", "1234567893").execute();
      const reads = await Promise.all(Array.from({ length: 10 }, () => gradeForNpi(deps, "1234567893")));
      for (const g of reads) expect(g.scoring_version).toBe(SCORING_VERSION);
      const after = await store.db.selectFrom("grades").select("id").where("npi", "=", "1234567893").execute();
      expect(after.length).toBe(before.length);
    });

    it("regrades once per scoring-version change, however many processes start", async () => {
      await store.db.deleteFrom("server_meta").where("key", "=", "scoring_version").execute();
      const count = async () =>
        (await store.db.selectFrom("grades").select("id").where("npi", "=", "1234567893").execute()).length;
      const before = await count();
      const regraded = await Promise.all([regradeAfterScoringChange(deps), regradeAfterScoringChange(deps)]);
      expect(regraded.sort()).toEqual([0, 1]);
      expect(await count()).toBe(before + 1);
      expect((await gradeForNpi(deps, "1234567893")).scoring_version).toBe(SCORING_VERSION);
      expect(await regradeAfterScoringChange(deps)).toBe(0);
    });

    it("appends audit events with their RFC 9162 leaf hash", async () => {
      const event = {
        at: clock.toISOString(),
        request_id: "req-1",
        actor_key_id: "key_x",
        actor_account_id: "acct_x",
        action: "hipaa.grade",
        transport: "jsonrpc",
        resource: "practice:1234567893",
        outcome: "success" as const,
        status: 200,
        client_ip: "127.0.0.1",
        duration_ms: 1.5,
      };
      await store.writes.run((trx) => appendAuditEvent(store.hot, trx, event));
      const row = await store.db
        .selectFrom("audit_events")
        .selectAll()
        .where("request_id", "=", "req-1")
        .executeTakeFirstOrThrow();
      expect(row.leaf_hash).toBe(auditLeafHash(event));
      expect(row.transport).toBe("jsonrpc");
      expect(row.leaf_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it("computes the reputation snapshot from the store", async () => {
      const owner = await store.db
        .selectFrom("practices")
        .select("account_id")
        .where("npi", "=", "1234567893")
        .executeTakeFirstOrThrow();
      await completedJobRow(deps, owner.account_id, "1234567893");
      const r = await computeReputation(deps, { uptimeSeconds: () => 42.9 });
      expect(r.practices_served).toBe(3);
      expect(r.total_scans).toBe(1);
      expect(r.findings_detected).toBe(4);
      expect(r.uptime_seconds).toBe(42);
      expect(r.average_response_time_ms).toBe(1.5);
    });

    it("creates the bootstrap operator account exactly once, even when raced", async () => {
      const results = await Promise.all([
        bootstrapOperatorAccount(deps),
        bootstrapOperatorAccount(deps),
        bootstrapOperatorAccount(deps),
      ]);
      const created = results.filter((r) => r !== null);
      expect(created).toHaveLength(1);
      expect(await bootstrapOperatorAccount(deps)).toBeNull();
      const account = await getAccount(deps, created[0]!.accountId);
      expect(account).toMatchObject({ plan: "professional", tier: "bulk" });
    });

    it("service errors are typed", async () => {
      try {
        await getAccount(deps, "acct_none");
        expect.unreachable();
      } catch (err) {
        expect(isServiceError(err) && err.code).toBe("not_found");
      }
    });
  });
}

forEachEngine(storeSuite);
