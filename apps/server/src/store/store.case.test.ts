import { type FindingParsed, SCORING_VERSION } from "@hcs/protocol";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargeAll } from "../accounting/credits.js";
import { chargeCredits, countRequest } from "../accounting/index.js";
import { sequenceAuditLog } from "../audit/sequencer.js";
import { isServiceError } from "../errors.js";
import { createSecretBox } from "../secrets/master-key.js";
import { createAccount, getAccount, rotateWebhookSecret, webhookSecretOf } from "../services/accounts.js";
import { authenticateApiKey, issueApiKey, revokeApiKey } from "../services/api-keys.js";
import { appendAuditEvent, auditLeafHash, auditRecordOf } from "../services/audit.js";
import { bootstrapOperatorAccount } from "../services/bootstrap.js";
import type { ServiceDeps } from "../services/deps.js";
import { openFindings, ownerGradeForNpi, recordAssessment, regradeAfterScoringChange } from "../services/grades.js";
import { addPractice } from "../services/practices.js";
import { computeReputation } from "../services/reputation.js";
import { completedJobRow } from "../test-support/fixtures.js";
import { forEachEngine, type OpenTestStore } from "../test-support/store-engines.js";
import type { HotSql } from "./hot-sql.js";
import type { Engine } from "./migrations/engine.js";
import type { Database } from "./schema.js";
import type { Store } from "./store.js";
import { type BulkWrite, UnexpectedWriteAnswer } from "./write-batcher.js";

/**
 * One conformance suite, run against every engine (docs/operations.md#postgresql-and-several-instances): the same
 * queries must behave the same on the embedded SQLite default and on PostgreSQL.
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

    /** The store with its hot statements counted by their first words (e.g. "update accounts"). */
    const countingStore = () => {
      const seen = new Map<string, number>();
      const count = (text: string) => {
        const head = text.split(" ").slice(0, 3).join(" ");
        seen.set(head, (seen.get(head) ?? 0) + 1);
      };
      const inner = store.hot;
      const hot: HotSql = {
        engine: inner.engine,
        all(executor, text, params) {
          count(text);
          return inner.all(executor, text, params);
        },
        ...(inner.insertLastRowid
          ? {
              insertLastRowid(text: string, params: readonly unknown[]) {
                count(text);
                return inner.insertLastRowid!(text, params);
              },
            }
          : {}),
      };
      return { deps: { ...deps, store: { ...store, hot } }, hot, seen };
    };

    it("writes a group commit's items of one bulk kind in one call, and retries them alone when the group fails", async () => {
      const calls: number[][] = [];
      const kind: BulkWrite<number, number> = {
        async run(trx, items) {
          calls.push([...items]);
          await trx
            .insertInto("server_meta")
            .values(items.map((i) => ({ key: `bulk-${i}`, value: "1" })))
            .execute();
          if (items.includes(13)) throw new Error("item 13 cannot be written");
          return items.map((i) => i * 2);
        },
      };
      // Items queued in one event-loop turn, with an ordinary op among them: one call for the three items.
      const op = store.writes.run(async () => "op");
      const results = await Promise.all([1, 2, 3].map((i) => store.writes.runInBulk(kind, i)));
      expect(results).toEqual([2, 4, 6]);
      await expect(op).resolves.toBe("op");
      expect(calls).toEqual([[1, 2, 3]]);
      // One bad item rolls the group back; each item is then written alone and only the bad one fails.
      calls.length = 0;
      const outcomes = await Promise.allSettled([4, 13, 5].map((i) => store.writes.runInBulk(kind, i)));
      expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : "failed"))).toEqual([8, "failed", 10]);
      expect(calls).toEqual([[4, 13, 5], [4], [13], [5]]);
      const keys = (await store.db.selectFrom("server_meta").select("key").execute()).map((r) => r.key);
      expect(keys).toEqual(expect.arrayContaining(["bulk-1", "bulk-2", "bulk-3", "bulk-4", "bulk-5"]));
      expect(keys).not.toContain("bulk-13");
    });

    it("never writes a committed group again: not when its answer is malformed, nor when a mirror of it throws", async () => {
      // A charge retried after its first attempt committed is taken twice: a group that committed and then failed
      // on the way back (a statement answering the wrong number of results, an in-memory mirror throwing) once had
      // each of its items written again, alone.
      const calls: number[][] = [];
      const write = async (db: Kysely<Database>, items: readonly number[]) => {
        calls.push([...items]);
        await db
          .insertInto("server_meta")
          .values(items.map((i) => ({ key: `once-${i}`, value: "1" })))
          .execute();
      };
      const malformed: BulkWrite<number, number> = {
        run: (trx, items) => write(trx, items).then(() => items.map((i) => i)),
        // Commits (one statement, its own transaction), then answers one result too few.
        runAlone: (db, items) => write(db, items).then(() => items.slice(1)),
      };
      const outcomes = await Promise.allSettled([1, 2].map((i) => store.writes.runInBulk(malformed, i)));
      expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
      expect((outcomes[0] as PromiseRejectedResult).reason).toBeInstanceOf(UnexpectedWriteAnswer);
      expect(calls).toEqual([[1, 2]]);
      calls.length = 0;
      const mirrored: number[] = [];
      const throwingMirror: BulkWrite<number, number> = {
        run: (trx, items) => write(trx, items).then(() => items.map((i) => i * 10)),
        committed(item, result) {
          mirrored.push(item);
          if (item === 4) throw new Error("the mirror failed");
          expect(result).toBe(item * 10);
        },
      };
      const results = await Promise.all([3, 4, 5].map((i) => store.writes.runInBulk(throwingMirror, i)));
      expect(results).toEqual([30, 40, 50]);
      expect(calls).toEqual([[3, 4, 5]]);
      expect(mirrored).toEqual([3, 4, 5]);
      const keys = (
        await store.db.selectFrom("server_meta").select("key").where("key", "like", "once-%").execute()
      ).map((r) => r.key);
      expect(keys.sort()).toEqual(["once-1", "once-2", "once-3", "once-4", "once-5"]);
    });

    it("counts a group commit's calls of one rate-limit window with one upsert, each call getting its own count", async () => {
      const counting = countingStore();
      const policy = { bucket: "test:coalesce", windows: [{ limit: 100, windowMs: 60_000 }] };
      const counts = await Promise.all(
        Array.from({ length: 10 }, async () => (await countRequest(counting.deps, policy))[0]!.count),
      );
      expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(counting.seen.get("insert into rate_limits")).toBe(1);
      const [row] = await store.hot.all<{ count: number }>(store.db, "select count from rate_limits where bucket = ?", [
        "test:coalesce:60000",
      ]);
      expect(Number(row!.count)).toBe(10);
    });

    it("takes a group's charges on one account with one update while the account holds them all, else in turn", async () => {
      const { account } = await createAccount(deps, { name: "G", plan: "free", tier: "standard", credits: 100 });
      const at = clock.toISOString();
      const charge = (amount: number, reference: string) => ({
        accountId: account.id,
        amount,
        operation: "grade",
        reference,
        at,
      });
      const covered = countingStore();
      const first = await store.writes.run((trx) => chargeAll(covered.hot, trx, [charge(10, "g1"), charge(20, "g2")]));
      expect(first).toEqual([
        { charged: true, balance: 90 },
        { charged: true, balance: 70 },
      ]);
      expect(covered.seen.get("update accounts set")).toBe(1);
      // 70 left: 30 and 25 fit, 40 does not, 15 still does — as if each had been charged alone, in order.
      const second = await store.writes.run((trx) =>
        chargeAll(store.hot, trx, [charge(30, "g3"), charge(25, "g4"), charge(40, "g5"), charge(15, "g6")]),
      );
      expect(second).toEqual([
        { charged: true, balance: 40 },
        { charged: true, balance: 15 },
        { charged: false, balance: 15 },
        { charged: true, balance: 0 },
      ]);
      expect((await getAccount(deps, account.id)).credits).toBe(0);
      const ledger = await store.db
        .selectFrom("credit_ledger")
        .select(["reference", "delta", "balance_after"])
        .where("account_id", "=", account.id)
        .where("operation", "=", "grade")
        .orderBy("id")
        .execute();
      expect(ledger).toEqual([
        { reference: "g1", delta: -10, balance_after: 90 },
        { reference: "g2", delta: -20, balance_after: 70 },
        { reference: "g3", delta: -30, balance_after: 40 },
        { reference: "g4", delta: -25, balance_after: 15 },
        { reference: "g6", delta: -15, balance_after: 0 },
      ]);
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
      await expect(ownerGradeForNpi(deps, "1234567893")).rejects.toMatchObject({ code: "no_grade_yet" });
      await expect(ownerGradeForNpi(deps, "1679576722")).rejects.toMatchObject({ code: "npi_not_found" });

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
      expect((await ownerGradeForNpi(deps, "1234567893")).scan_date).toBe(t3.toISOString());
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
      const reads = await Promise.all(Array.from({ length: 10 }, () => ownerGradeForNpi(deps, "1234567893")));
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
      expect((await ownerGradeForNpi(deps, "1234567893")).scoring_version).toBe(SCORING_VERSION);
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
        code: null,
        client_ip: "127.0.0.1",
        duration_ms: 1.5,
      };
      await store.writes.run((trx) => appendAuditEvent(store.hot, trx, event));
      await sequenceAuditLog(store);
      const row = await store.db
        .selectFrom("audit_trail")
        .selectAll()
        .where("request_id", "=", "req-1")
        .executeTakeFirstOrThrow();
      // The stored columns and salt rebuild the hashed record exactly; the context sits beside it.
      expect(row.salt).toMatch(/^[0-9a-f]{32}$/);
      expect(row.leaf_hash?.toString("hex")).toBe(
        auditLeafHash(auditRecordOf({ ...row, status: Number(row.status) }, row.salt)),
      );
      expect(row.leaf_hash?.toString("hex")).toBe(auditLeafHash(auditRecordOf(event, row.salt)));
      expect(row).toMatchObject({ transport: "jsonrpc", client_ip: "127.0.0.1", duration_ms: 1.5 });
      // Pruning the context (retention) leaves the record and its hash intact.
      await store.db.deleteFrom("audit_context").where("event_id", "=", row.id).execute();
      const pruned = await store.db
        .selectFrom("audit_trail")
        .selectAll()
        .where("request_id", "=", "req-1")
        .executeTakeFirstOrThrow();
      expect(pruned).toMatchObject({ client_ip: null, duration_ms: null, leaf_hash: row.leaf_hash });
      // Put it back: the reputation test below averages this event's duration.
      await store.db
        .insertInto("audit_context")
        .values({ event_id: row.id, at: row.at, client_ip: "127.0.0.1", duration_ms: 1.5 })
        .execute();
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
