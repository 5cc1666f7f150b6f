import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimJobs } from "../jobs/queue.js";
import { createSecretBox } from "../secrets/master-key.js";
import type { Engine } from "../store/migrations/engine.js";
import type { JobsTable } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { auditEvent } from "../test-support/audit-events.js";
import { accountWithKey } from "../test-support/fixtures.js";
import { forEachEngine, type OpenTestStore } from "../test-support/store-engines.js";
import { type AuditInTransaction, appendAuditEvent } from "./audit.js";
import type { ServiceDeps } from "./deps.js";
import { cancelJob } from "./job-cancel.js";
import { dispatchScan } from "./jobs.js";
import { addPractice } from "./practices.js";

/** Cancelling a job against workers claiming it, the same on both engines (PostgreSQL: from another pool). */
function cancelSuite(engine: Engine, open: OpenTestStore) {
  describe(`job cancellation on ${engine}`, () => {
    let store: Store;
    let workerStore: Store;
    let cleanup: () => Promise<void>;
    let deps: ServiceDeps;
    let accountId: string;
    const NPI = "1679576722";

    beforeAll(async () => {
      const opened = await open();
      ({ store, cleanup } = opened);
      await store.migrate();
      workerStore = opened.another();
      deps = { store, now: () => new Date(), secrets: createSecretBox(Buffer.alloc(32, 5)) };
      accountId = (await accountWithKey(deps, { credits: 100_000 })).accountId;
      await addPractice(deps, { npi: NPI, name: "Race Clinic", domain: "race.example", accountId });
    });
    afterAll(async () => {
      if (workerStore !== store) await workerStore.close();
      await store.close();
      await cleanup();
    });

    // What the cancelling call's auditIn does: its event, in the transaction that cancels and refunds.
    const auditCancel: AuditInTransaction<JobsTable> = (trx, job) =>
      appendAuditEvent(store.hot, trx, { ...auditEvent(0), action: "cancelJob", resource: `job:${job.id}` });

    const balance = async () =>
      (await store.db.selectFrom("accounts").select("credits").where("id", "=", accountId).executeTakeFirstOrThrow())
        .credits;

    it("racing a worker's claims, each job is either claimed (cancel: conflict) or cancelled and refunded once, never both", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 24; i++)
        ids.push((await dispatchScan(deps, { accountId, npi: NPI, scanType: "full", callbackUrl: null })).job_id);
      const before = await balance();

      const claiming = (async () => {
        const claimed: string[] = [];
        for (let i = 0; i < ids.length; i++) {
          const got = await claimJobs(workerStore.db, engine, {
            workerId: "wrk_race",
            limit: 2,
            leaseMs: 60_000,
            nowMs: Date.now(),
          });
          claimed.push(...got.map((j) => j.id));
        }
        return new Set(claimed);
      })();
      const cancelling = Promise.all(
        ids.map((id) =>
          cancelJob(deps, id, accountId, auditCancel).then(
            (job) => job.error?.code ?? "?",
            (err: { code?: string }) => err.code ?? "?",
          ),
        ),
      );
      const [claimed, outcomes] = await Promise.all([claiming, cancelling]);

      const rows = await store.db
        .selectFrom("jobs")
        .select(["id", "status", "error_code"])
        .where("id", "in", ids)
        .execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      ids.forEach((id, i) => {
        const row = byId.get(id)!;
        if (outcomes[i] === "cancelled") {
          expect(claimed.has(id), id).toBe(false);
          expect(row).toMatchObject({ status: "failed", error_code: "cancelled" });
        } else {
          expect(outcomes[i], id).toBe("conflict");
          expect(claimed.has(id), id).toBe(true);
          expect(row.status).toBe("running");
        }
      });
      const cancelled = outcomes.filter((o) => o === "cancelled").length;
      expect(await balance()).toBe(before + 150 * cancelled);
      const refunds = await store.db
        .selectFrom("credit_ledger")
        .select("reference")
        .where("operation", "=", "refund")
        .where(
          "reference",
          "in",
          ids.map((id) => `job:${id}`),
        )
        .execute();
      expect(refunds).toHaveLength(cancelled);
      // Each refund committed with the cancelling call's event, and no conflict left one.
      const events = await store.db
        .selectFrom("audit_events")
        .select("resource")
        .where("action", "=", "cancelJob")
        .where(
          "resource",
          "in",
          ids.map((id) => `job:${id}`),
        )
        .execute();
      expect(events.map((e) => e.resource).sort()).toEqual(refunds.map((r) => r.reference).sort());
    });

    it("cancelling a cancelled job changes nothing; a running one is a conflict that leaves it running", async () => {
      const { job_id } = await dispatchScan(deps, { accountId, npi: NPI, scanType: "full", callbackUrl: null });
      await cancelJob(deps, job_id, accountId, auditCancel);
      const before = await balance();
      expect(await cancelJob(deps, job_id, accountId, auditCancel)).toMatchObject({
        status: "failed",
        error: { code: "cancelled" },
      });
      expect(await balance()).toBe(before);

      const running = await dispatchScan(deps, { accountId, npi: NPI, scanType: "full", callbackUrl: null });
      const claimed = await claimJobs(store.db, engine, {
        workerId: "wrk_x",
        limit: 10,
        leaseMs: 60_000,
        nowMs: Date.now(),
      });
      expect(claimed.map((j) => j.id)).toContain(running.job_id);
      await expect(cancelJob(deps, running.job_id, accountId, auditCancel)).rejects.toMatchObject({
        code: "conflict",
        details: { status: "running" },
      });
      // Another account's job is answered as an unknown one (docs/security.md, "Who may read what").
      await expect(cancelJob(deps, running.job_id, "acct_other", auditCancel)).rejects.toMatchObject({
        code: "job_not_found",
      });
    });
  });
}

forEachEngine(cancelSuite);
