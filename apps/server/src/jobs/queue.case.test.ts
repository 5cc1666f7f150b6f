import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequenceAuditLog } from "../audit/sequencer.js";
import { createSecretBox } from "../secrets/master-key.js";
import { auditLeafHash, auditRecordOf } from "../services/audit.js";
import type { ServiceDeps } from "../services/deps.js";
import { dispatchScan, estimateDurationMs, jobForAccount } from "../services/jobs.js";
import { addPractice } from "../services/practices.js";
import type { Engine } from "../store/migrations/engine.js";
import type { Store } from "../store/store.js";
import { accountWithKey } from "../test-support/fixtures.js";
import { forEachEngine, type OpenTestStore } from "../test-support/store-engines.js";
import { JobError, type JobExecutor } from "./executors.js";
import { claimJobs, failExhaustedJobs, heartbeat, jobRetryDelayMs, markAttemptFailed } from "./queue.js";
import { Worker } from "./worker.js";

const silent = pino({ level: "silent" });

async function until(predicate: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Job queue semantics, the same on both engines (docs/operations.md#jobs-and-workers). */
function queueSuite(engine: Engine, open: OpenTestStore) {
  describe(`job queue on ${engine}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let deps: ServiceDeps;
    let accountId: string;
    let n = 0;
    const npis = ["1234567893", "1245319599", "1003000126", "1679576722", "1306849450"];

    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await store.migrate();
      deps = { store, now: () => new Date(), secrets: createSecretBox(Buffer.alloc(32, 3)) };
      accountId = (await accountWithKey(deps, { credits: 100_000 })).accountId;
      for (const npi of npis) await addPractice(deps, { npi, name: `P ${npi}`, domain: `p${npi}.example`, accountId });
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    const dispatch = (npi = npis[n++ % npis.length]!) =>
      dispatchScan(deps, { accountId, npi, scanType: "full", callbackUrl: null });
    const output = (npi: string) => ({
      source: "external" as const,
      subject: `p${npi}.example`,
      categories: ["email_security" as const],
      findings: [],
    });
    const worker = (executor: JobExecutor, o: { concurrency?: number; leaseMs?: number } = {}) =>
      new Worker(
        { store, secrets: deps.secrets, now: deps.now, logger: silent, executors: { full: executor } },
        {
          concurrency: o.concurrency ?? 2,
          leaseMs: o.leaseMs ?? 5_000,
          pollMs: 20,
          webhooks: { allowPrivateTargets: true, extraCaPem: [], retryBaseMs: 100 },
        },
      );
    const refundEvents = (jobId: string) =>
      sequenceAuditLog(store).then(() =>
        store.db.selectFrom("audit_trail").selectAll().where("resource", "=", `job:${jobId}`).execute(),
      );
    const balance = async () =>
      (await store.db.selectFrom("accounts").select("credits").where("id", "=", accountId).executeTakeFirstOrThrow())
        .credits;

    it("dispatch charges 150, writes an accepted job and estimates with the default before any completed", async () => {
      const before = await balance();
      const a = await dispatch();
      expect(a).toMatchObject({
        status: "accepted",
        poll_url: `/v1/a2a/jobs/${a.job_id}`,
        estimated_duration_ms: 5000,
      });
      expect(await balance()).toBe(before - 150);
      const job = await jobForAccount(deps, a.job_id, accountId);
      expect(job).toMatchObject({ status: "accepted", attempts: 0, max_attempts: 3, started_at: null });
      await expect(jobForAccount(deps, a.job_id, "acct_other")).rejects.toMatchObject({ code: "job_not_found" });
      await expect(jobForAccount(deps, "00000000-0000-0000-0000-000000000000", accountId)).rejects.toMatchObject({
        code: "job_not_found",
      });
    });

    it("runs jobs to completion with bounded concurrency, each exactly once", async () => {
      const ids = await Promise.all(Array.from({ length: 6 }, () => dispatch()));
      let active = 0;
      let peak = 0;
      const calls = new Map<string, number>();
      const w = worker(async (job) => {
        calls.set(job.id, (calls.get(job.id) ?? 0) + 1);
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 50));
        active--;
        return output(job.npi);
      });
      w.start();
      await until(async () => {
        const rows = await store.db.selectFrom("jobs").select("status").where("status", "!=", "completed").execute();
        return rows.length === 0;
      });
      await w.stop();
      expect(peak).toBeLessThanOrEqual(2);
      for (const a of ids) {
        expect(calls.get(a.job_id)).toBe(1);
        const job = await jobForAccount(deps, a.job_id, accountId);
        expect(job.status).toBe("completed");
        expect(job.result?.grade).toBe("A");
        expect(job.result?.report.findings_by_severity.critical).toBe(0);
        expect(job.attempts).toBe(1);
      }
      expect(await estimateDurationMs(deps, "full")).toBeGreaterThanOrEqual(50);
    });

    it("a failing job is retried with backoff, then failed with an error code and refunded", async () => {
      const before = await balance();
      const a = await dispatch();
      let attempts = 0;
      const w = worker(async () => {
        attempts++;
        throw new Error("database hiccup");
      });
      // Make retries due at once by moving run_after back whenever the job is re-queued.
      const nudge = setInterval(() => {
        void store.db
          .updateTable("jobs")
          .set({ run_after: "2000-01-01T00:00:00.000Z" })
          .where("id", "=", a.job_id)
          .where("status", "=", "accepted")
          .execute();
      }, 30);
      w.start();
      await until(async () => (await jobForAccount(deps, a.job_id, accountId)).status === "failed");
      clearInterval(nudge);
      await w.stop();
      const job = await jobForAccount(deps, a.job_id, accountId);
      expect(attempts).toBe(3);
      expect(job).toMatchObject({ status: "failed", attempts: 3, error: { code: "internal" } });
      expect(await balance()).toBe(before);
      const refund = await store.db
        .selectFrom("credit_ledger")
        .selectAll()
        .where("reference", "=", `job:${a.job_id}`)
        .orderBy("id")
        .execute();
      expect(refund.map((r) => [r.operation, r.delta])).toEqual([
        ["full_scan", -150],
        ["refund", 150],
      ]);
      // The refund is audited once (the retries refunded nothing), by the worker, for the account refunded.
      const events = await refundEvents(a.job_id);
      expect(events).toEqual([
        expect.objectContaining({
          action: "refundScan",
          transport: "worker",
          actor_account_id: accountId,
          actor_key_id: null,
          actor_operator: null,
          resource: `job:${a.job_id}`,
          outcome: "success",
          status: 200,
          code: null,
          // A worker event has no client address or duration: no context row.
          client_ip: null,
          duration_ms: null,
        }),
      ]);
      const e = events[0]!;
      expect(e.at).toBe(job.completed_at);
      expect(e.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(e.leaf_hash?.toString("hex")).toBe(
        auditLeafHash(auditRecordOf({ ...e, status: Number(e.status) }, e.salt)),
      );
      expect(auditRecordOf({ ...e, status: Number(e.status) }, e.salt).actor).toEqual({
        account_id: accountId,
        key_id: null,
      });
    });

    it("a permanent error fails at once", async () => {
      const a = await dispatch();
      const w = worker(async () => {
        throw new JobError("invalid_target", "the practice's domain cannot be scanned", false);
      });
      w.start();
      await until(async () => (await jobForAccount(deps, a.job_id, accountId)).status === "failed");
      await w.stop();
      expect(await jobForAccount(deps, a.job_id, accountId)).toMatchObject({
        attempts: 1,
        error: { code: "invalid_target" },
      });
      expect((await refundEvents(a.job_id)).map((e) => [e.action, e.transport])).toEqual([["refundScan", "worker"]]);
    });

    it("a job whose worker died on its last attempt is failed and refunded, and the refund audited", async () => {
      const before = await balance();
      const a = await dispatch();
      await store.db
        .updateTable("jobs")
        .set({ status: "running", attempts: 3, lease_owner: "wrk_gone", lease_expires_at: "2000-01-01T00:00:00.000Z" })
        .where("id", "=", a.job_id)
        .execute();
      expect(await failExhaustedJobs(store.db, Date.now())).toBe(1);
      expect(await jobForAccount(deps, a.job_id, accountId)).toMatchObject({ error: { code: "worker_lost" } });
      expect(await balance()).toBe(before);
      expect((await refundEvents(a.job_id)).map((e) => [e.action, e.transport, e.actor_account_id])).toEqual([
        ["refundScan", "worker", accountId],
      ]);
    });

    it("a job whose worker died is taken over after its lease expires and completes once", async () => {
      const a = await dispatch();
      const t0 = Date.now();
      // A worker claims it and vanishes (no heartbeat, no completion).
      const [claimed] = await claimJobs(store.db, store.engine, {
        workerId: "wrk_dead",
        limit: 1,
        leaseMs: 300,
        nowMs: t0,
      });
      expect(claimed?.id).toBe(a.job_id);
      expect(await heartbeat(store.db, { workerId: "wrk_other", jobIds: [a.job_id], leaseMs: 300, nowMs: t0 })).toEqual(
        new Set(),
      );
      let runs = 0;
      const w = worker(async (job) => {
        runs++;
        return output(job.npi);
      });
      w.start();
      await until(async () => (await jobForAccount(deps, a.job_id, accountId)).status === "completed");
      await w.stop();
      expect(runs).toBe(1);
      expect((await jobForAccount(deps, a.job_id, accountId)).attempts).toBe(2);
      // The dead worker's late report is ignored: it no longer holds the job.
      expect(
        await markAttemptFailed(store.db, claimed!, {
          workerId: "wrk_dead",
          code: "internal",
          message: "x",
          nowMs: Date.now(),
          retryable: true,
        }),
      ).toBe("lost");
    });

    it("two workers never run the same job", async () => {
      const ids = await Promise.all(Array.from({ length: 10 }, () => dispatch()));
      const seen = new Map<string, number>();
      const exec: JobExecutor = async (job) => {
        seen.set(job.id, (seen.get(job.id) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 10));
        return output(job.npi);
      };
      const w1 = worker(exec, { concurrency: 3 });
      const w2 = worker(exec, { concurrency: 3 });
      w1.start();
      w2.start();
      await until(
        async () =>
          (await store.db.selectFrom("jobs").select("id").where("status", "in", ["accepted", "running"]).execute())
            .length === 0,
      );
      await Promise.all([w1.stop(), w2.stop()]);
      for (const a of ids) expect(seen.get(a.job_id)).toBe(1);
    });

    it("retry delays grow exponentially with a cap", () => {
      expect([1, 2, 3, 4].map((a) => jobRetryDelayMs(a))).toEqual([2000, 4000, 8000, 16000]);
      expect(jobRetryDelayMs(20)).toBe(300_000);
    });
  });
}

forEachEngine(queueSuite);
