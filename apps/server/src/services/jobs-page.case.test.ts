import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimJobs, failJob } from "../jobs/queue.js";
import { auditWorkerRefund } from "../jobs/worker-audit.js";
import { createSecretBox } from "../secrets/master-key.js";
import type { Engine } from "../store/migrations/engine.js";
import type { Store } from "../store/store.js";
import { accountWithKey } from "../test-support/fixtures.js";
import { forEachEngine, type OpenTestStore } from "../test-support/store-engines.js";
import type { ServiceDeps } from "./deps.js";
import { cancelJob } from "./job-cancel.js";
import { dispatchScan } from "./jobs.js";
import { jobsPage } from "./jobs-page.js";
import { addPractice } from "./practices.js";

/** The job listing (REST GET /v1/a2a/jobs, A2A ListTasks), the same on both engines. */
function jobsPageSuite(engine: Engine, open: OpenTestStore) {
  describe(`job listing on ${engine}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let deps: ServiceDeps;
    let accountId: string;
    const ids: string[] = []; // oldest first
    const NPI = "1306849450";

    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await store.migrate();
      let tick = Date.parse("2026-11-22T01:00:00.000Z");
      // A clock that moves 1 s per reading: every job gets its own creation time.
      const now = () => {
        tick += 1_000;
        return new Date(tick);
      };
      deps = { store, now, secrets: createSecretBox(Buffer.alloc(32, 7)) };
      accountId = (await accountWithKey(deps, { credits: 100_000 })).accountId;
      const other = (await accountWithKey(deps, { credits: 1_000 })).accountId;
      await addPractice(deps, { npi: NPI, name: "List Clinic", domain: "list.example", accountId });
      await addPractice(deps, { npi: "1679576722", name: "Other", domain: "other.example", accountId: other });
      for (let i = 0; i < 7; i++) {
        const a2aContextId = i % 3 === 0 ? "ctx-a" : null;
        ids.push(
          (await dispatchScan(deps, { accountId, npi: NPI, scanType: "full", callbackUrl: null, a2aContextId })).job_id,
        );
      }
      await dispatchScan(deps, { accountId: other, npi: "1679576722", scanType: "full", callbackUrl: null });
      // ids[0] claimed (running), ids[1] failed for good, ids[2] cancelled; the rest accepted.
      const nowMs = deps.now().getTime();
      await claimJobs(store.db, engine, { workerId: "wrk_list", limit: 1, leaseMs: 60_000, nowMs });
      await store.db.transaction().execute((trx) =>
        failJob(trx, ids[1]!, {
          code: "target_unreachable",
          message: "no answer",
          nowMs: deps.now().getTime(),
          audit: auditWorkerRefund,
        }),
      );
      await cancelJob(deps, ids[2]!, accountId, async () => undefined);
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    const list = (q: Partial<Parameters<typeof jobsPage>[1]> = {}) =>
      jobsPage(deps, { accountId, includeResults: false, limit: 50, ...q });

    it("lists the account's jobs newest first, with the total, and pages through them without skips or repeats", async () => {
      const all = await list();
      expect(all.jobs.map((j) => j.job_id)).toEqual([...ids].reverse());
      expect(all).toMatchObject({ total: 7, next_cursor: null });
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await list({ limit: 3, ...(cursor ? { cursor } : {}) });
        expect(page.total).toBe(7);
        seen.push(...page.jobs.map((j) => j.job_id));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual([...ids].reverse());
    });

    it("filters by state, keeping cancelled jobs apart from failed ones", async () => {
      const of = async (status: "accepted" | "running" | "completed" | "failed" | "cancelled") =>
        (await list({ status })).jobs.map((j) => j.job_id);
      expect(await of("running")).toEqual([ids[0]]);
      expect(await of("failed")).toEqual([ids[1]]);
      expect(await of("cancelled")).toEqual([ids[2]]);
      expect(await of("accepted")).toEqual(ids.slice(3).reverse());
      expect(await of("completed")).toEqual([]);
    });

    it("filters by A2A context — a job outside A2A is its own — and by the time of the last change", async () => {
      expect((await list({ a2aContextId: "ctx-a" })).jobs.map((j) => j.job_id)).toEqual([ids[6], ids[3], ids[0]]);
      expect((await list({ a2aContextId: ids[1]! })).jobs.map((j) => j.job_id)).toEqual([ids[1]]);
      const created4 = (await list()).jobs.find((j) => j.job_id === ids[4])!.created_at;
      // Jobs created at or after the 5th, and those whose status changed since: started (ids[0]), failed, cancelled.
      const changed = (await list({ changedSince: created4 })).jobs.map((j) => j.job_id);
      expect(changed.sort()).toEqual([ids[0], ids[1], ids[2], ids[4], ids[5], ids[6]].sort());
    });

    it("refuses a cursor it did not issue", async () => {
      await expect(list({ cursor: "bm90LWEtY3Vyc29y" })).rejects.toMatchObject({ code: "invalid_query" });
    });
  });
}

forEachEngine(jobsPageSuite);
