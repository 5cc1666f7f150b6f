import type { Task } from "@a2a-js/sdk";
import { TaskState } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wouldExceed } from "../accounting/index.js";
import { CATALOGUE } from "../catalogue/index.js";
import { claimJobs } from "../jobs/queue.js";
import { getAccount } from "../services/accounts.js";
import { authenticateApiKey } from "../services/api-keys.js";
import { addPractice } from "../services/practices.js";
import { a2aClientFromCard, skillRequest } from "../test-support/a2a-client.js";
import { accountWithKey } from "../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";
import { a2aMethods } from "./methods.js";

/*
 * Tasks whose job no worker takes: this server runs none, so a dispatched job stays accepted (SUBMITTED) — what a
 * cancellation can still stop, and what a blocking send that outlasts its bound answers.
 */

let t: TestServer;
let owner: Awaited<ReturnType<typeof accountWithKey>>;
let client: Client;
const NPI = "1245319599";

beforeAll(async () => {
  t = await startTestServer({ env: { HCS_ALLOW_PRIVATE_TARGETS: "1" } });
  owner = await accountWithKey(t.server.deps, { credits: 1_000 });
  await addPractice(t.server.deps, {
    npi: NPI,
    name: "Queue Clinic",
    domain: "queue.example",
    accountId: owner.accountId,
  });
  client = await a2aClientFromCard(t.url, t.ca, owner.apiKey);
});
afterAll(async () => {
  await t.close();
});

const balance = async () => (await getAccount(t.server.deps, owner.accountId)).credits;
const submit = async (params: Record<string, unknown> = {}) =>
  (await client.sendMessage(skillRequest("hipaa.scan", { npi: NPI, ...params }, { returnImmediately: true }))) as Task;

describe("CancelTask", () => {
  it("cancels a task no worker has started: CANCELED, credits refunded with a ledger row, the webhook queued", async () => {
    const before = await balance();
    const task = await submit({ callback_url: "https://127.0.0.1:9/hooks/hcs" });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect(await balance()).toBe(before - 150);

    const cancelled = await client.cancelTask({ tenant: "", id: task.id, metadata: undefined });
    expect(cancelled.id).toBe(task.id);
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(cancelled.status?.message?.parts[0]?.content?.value).toContain("cancelled before it ran");
    expect(await balance()).toBe(before);
    const refund = await t.server.deps.store.db
      .selectFrom("credit_ledger")
      .select(["delta", "operation"])
      .where("reference", "=", `job:${task.id}`)
      .orderBy("id")
      .execute();
    expect(refund).toEqual([
      { delta: -150, operation: "full_scan" },
      { delta: 150, operation: "refund" },
    ]);
    const webhook = await t.server.deps.store.db
      .selectFrom("webhook_deliveries")
      .select(["event", "body"])
      .where("job_id", "=", task.id)
      .executeTakeFirstOrThrow();
    expect(webhook.event).toBe("job.failed");
    expect(JSON.parse(webhook.body)).toMatchObject({ status: "failed", error: { code: "cancelled" } });

    // Cancelling again has the same effect (a retried request): the same CANCELED task, nothing refunded twice.
    const again = await client.cancelTask({ tenant: "", id: task.id, metadata: undefined });
    expect(again.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(await balance()).toBe(before);
    expect((await client.getTask({ tenant: "", id: task.id })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it("a task a worker has claimed is TaskNotCancelable (-32002) and keeps running", async () => {
    const task = await submit();
    const { db, engine } = t.server.deps.store;
    const claimed = await claimJobs(db, engine, { workerId: "wrk_test", limit: 1, leaseMs: 60_000, nowMs: Date.now() });
    expect(claimed.map((j) => j.id)).toEqual([task.id]);
    await expect(client.cancelTask({ tenant: "", id: task.id, metadata: undefined })).rejects.toMatchObject({
      name: "TaskNotCancelableError",
      envelopeCode: -32002,
      data: { code: "conflict", details: { status: "running" } },
    });
    expect((await client.getTask({ tenant: "", id: task.id })).status?.state).toBe(TaskState.TASK_STATE_WORKING);
  });

  it("another account's task, and an unknown one, are TaskNotFound (-32001)", async () => {
    const task = await submit();
    const other = await accountWithKey(t.server.deps, { credits: 10 });
    const theirs = await a2aClientFromCard(t.url, t.ca, other.apiKey);
    for (const [c, id] of [
      [theirs, task.id],
      [client, "7d1b1f0e-0000-4000-8000-000000000000"],
    ] as const)
      await expect(c.cancelTask({ tenant: "", id, metadata: undefined })).rejects.toMatchObject({
        envelopeCode: -32001,
        data: { code: "job_not_found" },
      });
    expect((await client.getTask({ tenant: "", id: task.id })).status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
  });
});

describe("a blocking SendMessage whose job outlasts the bound", () => {
  it("answers the task as it stands once the bound has passed", async () => {
    // The same handlers the server mounts, with a 300 ms bound instead of 30 s.
    const send = a2aMethods(CATALOGUE.operations, { blockingWaitMs: 300 }).SendMessage!;
    const caller = await authenticateApiKey(t.server.deps, owner.apiKey);
    const started = Date.now();
    const outcome = await send.call(
      {
        message: {
          messageId: "m-blocking",
          role: "ROLE_USER",
          parts: [{ data: { skill: "hipaa.scan", params: { npi: NPI } } }],
        },
      },
      {
        deps: t.server.deps,
        credentials: { caller, refused: null },
        requestId: "req-blocking",
        clientIp: "127.0.0.1",
        header: (name) => (name.toLowerCase() === "a2a-version" ? "1.0" : ""),
        overLimit: (policy) => wouldExceed(t.server.deps, policy),
      },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(outcome.ok).toBe(true);
    const { task } = JSON.parse((outcome as { json: string }).json);
    expect(task.status.state).toBe("TASK_STATE_SUBMITTED");
    expect(task.status.message.parts[0].text).toContain("waiting for a worker");
  });
});
