import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Worker } from "../jobs/worker.js";
import { createSecretBox } from "../secrets/master-key.js";
import type { ServiceDeps } from "../services/deps.js";
import { dispatchScan } from "../services/jobs.js";
import { addPractice } from "../services/practices.js";
import type { Engine } from "../store/migrations/engine.js";
import type { WebhookDeliveriesTable } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { accountWithKey } from "../test-support/fixtures.js";
import { forEachEngine, type OpenTestStore } from "../test-support/store-engines.js";
import { enqueueWebhook } from "./outbox.js";
import {
  answer,
  endlessBody,
  hang,
  type ReceiverScript,
  type ScriptedReceiver,
  startScriptedReceiver,
} from "./test-support/scripted-receiver.js";

const MiB = 1024 * 1024;

async function until(predicate: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Webhook delivery through the worker, the same on both engines (docs/webhooks.md#delivery-guarantees): a reply is
 * not held in memory, a receiver that hangs delays neither other jobs nor other receivers' deliveries, and each
 * receiver's deliveries in flight are bounded across workers; a stopped worker hands its delivery back due at once, a
 * late result never overwrites a delivery another worker took over, and one whose secret cannot be decrypted fails
 * at once instead of being retried.
 */
function deliverySuite(engine: Engine, open: OpenTestStore) {
  describe(`webhook delivery on ${engine}`, () => {
    let store: Store;
    let another: () => Store;
    let cleanup: () => Promise<void>;
    let deps: ServiceDeps;
    let accountId: string;
    const npi = "1234567893";
    const logs: Record<string, unknown>[] = [];
    const logger = pino(
      { level: "info" },
      new Writable({
        write(chunk, _enc, cb) {
          for (const line of String(chunk).split("\n").filter(Boolean)) logs.push(JSON.parse(line));
          cb();
        },
      }),
    );
    const receivers: ScriptedReceiver[] = [];
    const workers: Worker[] = [];

    beforeAll(async () => {
      ({ store, another, cleanup } = await open());
      await store.migrate();
      deps = { store, now: () => new Date(), secrets: createSecretBox(Buffer.alloc(32, 3)) };
      accountId = (await accountWithKey(deps, { credits: 100_000 })).accountId;
      await addPractice(deps, { npi, name: "P", domain: "p.example", accountId });
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });
    // Receivers close first so that attempts still waiting on them end, then workers stop; nothing stays pending.
    afterEach(async () => {
      await Promise.all(receivers.splice(0).map((r) => r.close()));
      await Promise.all(workers.splice(0).map((w) => w.stop(2_000)));
      await store.db
        .updateTable("webhook_deliveries")
        .set({ status: "failed" })
        .where("status", "=", "pending")
        .execute();
    });

    const receiver = async (script: ReceiverScript) => {
      const r = await startScriptedReceiver(script);
      receivers.push(r);
      return r;
    };
    const worker = (o: { store?: Store; caPem: string; concurrency?: number; firstByteTimeoutMs?: number }) => {
      const w = new Worker(
        {
          store: o.store ?? store,
          secrets: deps.secrets,
          now: deps.now,
          logger,
          executors: {
            full: async (job) => ({
              source: "external" as const,
              subject: `p${job.npi}.example`,
              categories: ["email_security" as const],
              findings: [],
            }),
          },
        },
        {
          concurrency: 2,
          leaseMs: 5_000,
          pollMs: 20,
          webhooks: {
            allowPrivateTargets: true,
            extraCaPem: [o.caPem],
            // Failed attempts are not retried within a test.
            retryBaseMs: 60_000,
            firstByteTimeoutMs: o.firstByteTimeoutMs ?? 4_000,
            totalTimeoutMs: (o.firstByteTimeoutMs ?? 4_000) + 2_000,
            concurrency: o.concurrency ?? 6,
            perReceiverConcurrency: 2,
          },
        },
      );
      workers.push(w);
      w.start();
      return w;
    };
    /** A finished job with a queued delivery to `url`, as markCompleted leaves one. */
    const enqueue = async (url: string, account = accountId): Promise<string> => {
      const at = Date.now();
      return store.db.transaction().execute(async (trx) => {
        const job = await trx
          .insertInto("jobs")
          .values({
            id: crypto.randomUUID(),
            account_id: account,
            npi,
            scan_type: "full",
            status: "completed",
            callback_url: url,
            attempts: 1,
            max_attempts: 3,
            run_after: new Date(at).toISOString(),
            lease_owner: null,
            lease_expires_at: null,
            created_at: new Date(at).toISOString(),
            started_at: new Date(at).toISOString(),
            completed_at: new Date(at).toISOString(),
            duration_ms: 1,
            credits_charged: 0,
            result: null,
            error_code: null,
            error_message: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return enqueueWebhook(trx, job, "job.completed", { job_id: job.id }, at);
      });
    };
    const row = (id: string): Promise<WebhookDeliveriesTable> =>
      store.db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

    it("records a 2xx whose reply body is huge, promptly and without holding the body in memory", async () => {
      const ok = await receiver(answer(204));
      const huge = await receiver(endlessBody(200, 192 * MiB));
      worker({ caPem: ok.caPem });
      // Warm up TLS and module loading so that the measurement sees only the huge reply.
      const warm = await enqueue(ok.url);
      await until(async () => (await row(warm)).status === "delivered");
      const rssBefore = process.memoryUsage().rss;
      const t0 = performance.now();
      const id = await enqueue(huge.url);
      await until(async () => (await row(id)).status !== "pending", 20_000);
      const ms = performance.now() - t0;
      const grewMiB = (process.memoryUsage().rss - rssBefore) / MiB;
      console.info(
        `[measure] ${engine}: delivery with a 192 MiB reply: ${ms.toFixed(0)} ms, RSS +${grewMiB.toFixed(1)} MiB`,
      );
      expect(await row(id)).toMatchObject({
        status: "delivered",
        last_status_code: 200,
        attempts: 1,
        lease_owner: null,
      });
      expect(ms).toBeLessThan(2_000);
      expect(grewMiB).toBeLessThan(16);
    });

    it("two hanging receivers do not delay another account's job: it is claimed and completed promptly", async () => {
      const slow1 = await receiver(hang);
      const slow2 = await receiver(hang);
      const other = (await accountWithKey(deps, { credits: 0 })).accountId;
      for (const url of [slow1.url, slow1.url, slow2.url, slow2.url]) await enqueue(url, other);
      const w = worker({ caPem: slow1.caPem });
      await until(() => slow1.active + slow2.active >= 4);
      const t0 = performance.now();
      const job = await dispatchScan(deps, { accountId, npi, scanType: "full", callbackUrl: null });
      w.wake();
      await until(async () => {
        const j = await store.db.selectFrom("jobs").select("status").where("id", "=", job.job_id).executeTakeFirst();
        return j?.status === "completed";
      });
      const ms = performance.now() - t0;
      console.info(`[measure] ${engine}: job completed ${ms.toFixed(0)} ms after dispatch while 4 deliveries hung`);
      // Well inside the 4 s first-byte cap, and the hanging attempts are still in flight: the job did not wait.
      expect(ms).toBeLessThan(2_000);
      expect(slow1.active + slow2.active).toBe(4);
    });

    it("bounds each receiver's concurrent deliveries and keeps serving others while backlogs are stuck", async () => {
      const slow1 = await receiver(hang);
      const slow2 = await receiver(hang);
      const healthy = await receiver(answer(204));
      // Backlogs longer than one claim looks at (4 candidates per free slot), so only leaving full receivers out
      // of the query reaches what is queued behind them.
      for (let i = 0; i < 20; i++) {
        await enqueue(slow1.url);
        await enqueue(slow2.url);
      }
      // Queued after both backlogs, so a first-come claim would never reach them while the backlogs hang.
      const mine = [await enqueue(healthy.url), await enqueue(healthy.url), await enqueue(healthy.url)];
      const t0 = performance.now();
      worker({ caPem: healthy.caPem, concurrency: 6 });
      await until(async () => {
        const rows = await Promise.all(mine.map(row));
        return rows.every((r) => r.status === "delivered");
      });
      const ms = performance.now() - t0;
      await new Promise((r) => setTimeout(r, 200));
      console.info(
        `[measure] ${engine}: healthy receiver served in ${ms.toFixed(0)} ms; peak ` +
          `${slow1.peakActive} and ${slow2.peakActive} deliveries in flight at the hanging receivers`,
      );
      // Well inside the 4 s first-byte cap: the healthy receiver did not wait for a hanging attempt to end.
      expect(ms).toBeLessThan(2_500);
      // Attempts that ended early (their sockets may linger at the receiver) say why a bound looked broken.
      const ended = JSON.stringify(logs.filter((l) => String(l.msg).startsWith("webhook")).slice(-10));
      expect(slow1.peakActive, ended).toBe(2);
      expect(slow2.peakActive, ended).toBe(2);
    });

    it("the per-receiver bound holds across two workers sharing the database", async () => {
      const slow = await receiver(hang);
      for (let i = 0; i < 8; i++) await enqueue(slow.url);
      const second = another();
      try {
        // No attempt may end inside the test (a CI run once saw a third connection: most likely an attempt that hit
        // the 4 s first-byte cap under load, its socket not yet closed when the next lease's connection opened), so
        // every connection the receiver saw is a delivery still in flight.
        worker({ caPem: slow.caPem, firstByteTimeoutMs: 60_000 });
        worker({ caPem: slow.caPem, store: second, firstByteTimeoutMs: 60_000 });
        await until(() => slow.requests >= 2);
        await new Promise((r) => setTimeout(r, 400));
        const ended = JSON.stringify(logs.filter((l) => String(l.msg).startsWith("webhook")).slice(-10));
        expect(slow.requests, ended).toBe(2);
        expect(slow.peakActive, ended).toBe(2);
      } finally {
        await Promise.all(receivers.splice(0).map((r) => r.close()));
        await Promise.all(workers.splice(0).map((w) => w.stop(2_000)));
        if (second !== store) await second.close();
      }
    });

    it("stopping the worker interrupts a hanging attempt and hands the delivery back, due at once", async () => {
      const slow = await receiver(hang);
      const id = await enqueue(slow.url);
      const w = worker({ caPem: slow.caPem });
      await until(() => slow.active === 1);
      const t0 = performance.now();
      await w.stop(200);
      expect(performance.now() - t0).toBeLessThan(1_000);
      const back = await row(id);
      expect(back).toMatchObject({ status: "pending", attempts: 1, lease_owner: null, lease_expires_at: null });
      expect(Date.parse(back.next_attempt_at)).toBeLessThanOrEqual(Date.now());
      expect(logs.some((l) => l.delivery_id === id && l.msg === "webhook attempt interrupted")).toBe(true);
    });

    it("a late result does not overwrite a delivery whose lease another worker took over", async () => {
      let id = "";
      // While the attempt runs, its lease lapses and another worker claims the delivery (simulated here).
      const r = await receiver((req, res) => {
        req.resume();
        void store.db
          .updateTable("webhook_deliveries")
          .set({ lease_owner: "wrk_other", lease_expires_at: new Date(Date.now() + 60_000).toISOString() })
          .where("id", "=", id)
          .execute()
          .then(() => res.writeHead(204).end());
      });
      id = await enqueue(r.url);
      worker({ caPem: r.caPem });
      await until(() => logs.some((l) => l.delivery_id === id && l.reason === "lease_lost"), 3_000);
      expect(r.requests).toBe(1);
      expect(await row(id)).toMatchObject({
        status: "pending",
        lease_owner: "wrk_other",
        last_status_code: null,
        last_attempt_at: null,
      });
    });

    it("a delivery whose secret cannot be decrypted is failed at once with a logged reason, never re-claimed", async () => {
      const r = await receiver(answer(204));
      const { accountId: broken } = await accountWithKey(deps, { credits: 0 });
      // The account's secret was sealed under another master key (HCS_MASTER_KEY changed or differs).
      const sealedElsewhere = createSecretBox(Buffer.alloc(32, 9)).seal("whsec_other");
      await store.db
        .updateTable("accounts")
        .set({ webhook_secret_enc: sealedElsewhere })
        .where("id", "=", broken)
        .execute();
      const id = await enqueue(r.url, broken);
      worker({ caPem: r.caPem });
      await until(async () => (await row(id)).status !== "pending", 3_000);
      await new Promise((res) => setTimeout(res, 200));
      const failed = await row(id);
      expect(failed).toMatchObject({ status: "failed", attempts: 1, lease_owner: null, last_status_code: null });
      expect(failed.last_error).toMatch(/cannot be decrypted/);
      expect(r.requests).toBe(0);
      const logged = logs.filter((l) => l.delivery_id === id);
      expect(logged).toEqual([expect.objectContaining({ reason: "secret_undecryptable", account_id: broken })]);
      expect(JSON.stringify(logged)).not.toContain(sealedElsewhere.split(".")[3]!);
    });
  });
}

forEachEngine(deliverySuite);
