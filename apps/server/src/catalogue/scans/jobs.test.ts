import { JobSchema, JobsPageSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimJobs } from "../../jobs/queue.js";
import { getAccount } from "../../services/accounts.js";
import { dispatchScan } from "../../services/jobs.js";
import { addPractice } from "../../services/practices.js";
import { accountWithKey } from "../../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

/* The REST twins of A2A's ListTasks and CancelTask, on a server without a worker (jobs stay accepted until claimed). */

let t: TestServer;
let owner: Awaited<ReturnType<typeof accountWithKey>>;
let other: Awaited<ReturnType<typeof accountWithKey>>;
const NPIS = ["1245319599", "1003000126"];
const ids: string[] = []; // oldest first

beforeAll(async () => {
  t = await startTestServer({ env: { HCS_ALLOW_PRIVATE_TARGETS: "1" } });
  owner = await accountWithKey(t.server.deps, { credits: 2_000 });
  other = await accountWithKey(t.server.deps, { credits: 500 });
  for (const npi of NPIS)
    await addPractice(t.server.deps, { npi, name: `P ${npi}`, domain: `p${npi}.example`, accountId: owner.accountId });
  for (const [i, npi] of [NPIS[0], NPIS[1], NPIS[0]].entries()) {
    const res = await t.request("/v1/a2a/scans/dispatch", {
      method: "POST",
      headers: { "X-API-Key": owner.apiKey },
      body: { npi, ...(i === 0 ? { callback_url: "https://127.0.0.1:9/hook" } : {}) },
    });
    expect(res.status).toBe(202);
    ids.push(res.json.job_id);
  }
  // One dispatched by an A2A message keeps its contextId.
  const a2a = await dispatchScan(t.server.deps, {
    accountId: owner.accountId,
    npi: NPIS[1]!,
    scanType: "full",
    callbackUrl: null,
    a2aContextId: "ctx-rest",
  });
  ids.push(a2a.job_id);
});
afterAll(async () => {
  await t.close();
});

const get = (query: string, key = owner.apiKey) => t.request(`/v1/a2a/jobs${query}`, { headers: { "X-API-Key": key } });
const cancel = (id: string, key = owner.apiKey) =>
  t.request(`/v1/a2a/jobs/${id}/cancel`, { method: "POST", headers: { "X-API-Key": key } });
const balance = async () => (await getAccount(t.server.deps, owner.accountId)).credits;

describe("GET /v1/a2a/jobs", () => {
  it("lists the account's jobs newest first, without results, with the total and rate-limit headers", async () => {
    const res = await get("");
    expect(res.status).toBe(200);
    expect(res.headers["x-ratelimit-remaining"]).toBeDefined();
    const page = JobsPageSchema.parse(res.json);
    expect(page.jobs.map((j) => j.job_id)).toEqual([...ids].reverse());
    expect(page).toMatchObject({ total: 4, next_cursor: null });
    expect(page.jobs[0]).toMatchObject({ status: "accepted", a2a_context_id: "ctx-rest" });
    expect(page.jobs[1]!.a2a_context_id).toBeUndefined();
    expect(page.jobs.every((j) => j.result === undefined)).toBe(true);
  });

  it("pages with limit and cursor: every job once, in order", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      const page = JobsPageSchema.parse(res.json);
      expect(page.total).toBe(4);
      seen.push(...page.jobs.map((j) => j.job_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it("filters by status, A2A context (a job outside A2A is its own context) and time of the last change", async () => {
    expect((await get("?status=accepted")).json.total).toBe(4);
    expect((await get("?status=running")).json.total).toBe(0);
    expect((await get("?a2a_context_id=ctx-rest")).json.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([
      ids[3],
    ]);
    expect((await get(`?a2a_context_id=${ids[1]}`)).json.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([
      ids[1],
    ]);
    expect((await get("?changed_since=2000-01-01T00:00:00Z")).json.total).toBe(4);
    expect((await get("?changed_since=2999-01-01T00:00:00%2B02:00")).json.total).toBe(0);
  });

  it("shows another account none of them", async () => {
    expect((await get("", other.apiKey)).json).toEqual({ jobs: [], next_cursor: null, total: 0 });
  });

  it.each([
    ["?limit=101", "invalid_query"],
    ["?limit=0", "invalid_query"],
    ["?status=done", "invalid_query"],
    ["?cursor=bm90LWEtY3Vyc29y", "invalid_query"],
    ["?changed_since=yesterday", "invalid_query"],
    ["?extra=1", "invalid_query"],
  ])("%s → 400 %s", async (query, code) => {
    const res = await get(query);
    expect([res.status, res.json.error.code]).toEqual([400, code]);
  });

  it("needs a key", async () => {
    expect((await t.request("/v1/a2a/jobs")).status).toBe(401);
  });
});

describe("POST /v1/a2a/jobs/{job_id}/cancel", () => {
  it("cancels an accepted job: failed with error.code cancelled, credits refunded, job.failed webhook queued, audited", async () => {
    const before = await balance();
    const res = await cancel(ids[0]!);
    expect(res.status).toBe(200);
    const job = JobSchema.parse(res.json);
    expect(job).toMatchObject({ job_id: ids[0], status: "failed", error: { code: "cancelled" } });
    expect(job.completed_at).not.toBeNull();
    expect(await balance()).toBe(before + 150);
    const delivery = await t.server.deps.store.db
      .selectFrom("webhook_deliveries")
      .select("event")
      .where("job_id", "=", ids[0]!)
      .execute();
    expect(delivery).toEqual([{ event: "job.failed" }]);
    const audit = await t.server.deps.store.db
      .selectFrom("audit_events")
      .select(["transport", "status", "resource"])
      .where("action", "=", "cancelJob")
      .execute();
    expect(audit).toContainEqual({ transport: "rest", status: 200, resource: `job:${ids[0]}` });
    // One event for the call, written with the refund: the refund has no event of its own.
    const ofJob = await t.server.deps.store.db
      .selectFrom("audit_events")
      .select("action")
      .where("resource", "=", `job:${ids[0]}`)
      .execute();
    expect(ofJob).toEqual([{ action: "cancelJob" }]);
    // The listing keeps cancelled jobs apart from failed ones.
    expect((await get("?status=cancelled")).json.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([ids[0]]);
    expect((await get("?status=failed")).json.total).toBe(0);
  });

  it("cancelling again answers the cancelled job and refunds nothing more", async () => {
    const before = await balance();
    const res = await cancel(ids[0]!);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ job_id: ids[0], status: "failed", error: { code: "cancelled" } });
    expect(await balance()).toBe(before);
  });

  it("a job a worker has claimed is 409 conflict and is not touched", async () => {
    const { db, engine } = t.server.deps.store;
    const claimed = await claimJobs(db, engine, { workerId: "wrk_rest", limit: 1, leaseMs: 60_000, nowMs: Date.now() });
    expect(claimed.map((j) => j.id)).toEqual([ids[1]]); // the oldest still accepted
    const res = await cancel(ids[1]!);
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({ code: "conflict", details: { status: "running", job_id: ids[1] } });
    expect((await get("?status=running")).json.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([ids[1]]);
  });

  it("another account's job, an unknown or a malformed id are all 404 job_not_found", async () => {
    expect((await cancel(ids[2]!, other.apiKey)).json.error.code).toBe("job_not_found");
    for (const id of ["7d1b1f0e-0000-4000-8000-000000000000", "nope"]) {
      const res = await cancel(id);
      expect([res.status, res.json.error.code]).toEqual([404, "job_not_found"]);
    }
    expect((await get("?status=accepted")).json.total).toBe(2);
  });
});
