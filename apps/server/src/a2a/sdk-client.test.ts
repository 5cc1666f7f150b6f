import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Message, type Part, type Task, TaskState } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { GradeRecordSchema, JobSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SamplePractices, samplePracticesEnv, startSamplePractices } from "../sample-practices/index.js";
import { getAccount } from "../services/accounts.js";
import { a2aClientFromCard, dataPart, skillRequest, userMessage } from "../test-support/a2a-client.js";
import { accountWithKey, addSamplePractices, gradedPractice } from "../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

/*
 * A2A v1.0 as an agent sees it: @a2a-js/sdk's client made from the agent card, over real HTTPS, against a real
 * store and a real worker scanning the sample practices (loopback only).
 */

let samples: SamplePractices;
let t: TestServer;
let tmp: string;
let owner: Awaited<ReturnType<typeof accountWithKey>>;
let client: Client;
const GRADED_NPI = "1234567893";

beforeAll(async () => {
  samples = await startSamplePractices({ loopbackPrefix: "127.0.23" });
  tmp = mkdtempSync(join(tmpdir(), "hcs-a2a-"));
  t = await startTestServer({ worker: true, env: samplePracticesEnv(samples, tmp) });
  owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 5_000 });
  await addSamplePractices(t.server.deps, samples.practices, owner.accountId);
  await gradedPractice(t.server.deps, owner.accountId, GRADED_NPI);
  client = await a2aClientFromCard(t.url, t.ca, owner.apiKey);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await samples?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const balance = async () => (await getAccount(t.server.deps, owner.accountId)).credits;
const isMessage = (r: Message | Task): r is Message => "messageId" in r;
const dataOf = (parts: Part[]) => parts.find((p) => p.content?.$case === "data")?.content?.value;
const textOf = (parts: Part[]) => parts.find((p) => p.content?.$case === "text")?.content?.value as string;
const auditEvents = (action: string) =>
  t.server.deps.store.db
    .selectFrom("audit_events")
    .select(["action", "transport", "status", "resource"])
    .where("action", "=", action)
    .where("transport", "=", "a2a")
    .execute();

async function followToEnd(id: string, timeoutMs = 60_000): Promise<Task> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const task = await client.getTask({ tenant: "", id });
    const state = task.status?.state;
    if (state === TaskState.TASK_STATE_COMPLETED || state === TaskState.TASK_STATE_FAILED) return task;
    if (Date.now() > end) throw new Error(`task ${id} still ${state}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe("A2A v1.0 with @a2a-js/sdk's client made from /.well-known/agent-card.json", () => {
  it("SendMessage to hipaa.grade answers a message with the grade record as data: 25 credits, audited as a2a", async () => {
    const rest = await t.request(`/v1/a2a/grade/${GRADED_NPI}`, { headers: { "X-API-Key": owner.apiKey } });
    const before = await balance();
    const result = await client.sendMessage(skillRequest("hipaa.grade", { npi: GRADED_NPI }));
    expect(isMessage(result)).toBe(true);
    const message = result as Message;
    expect(message.role).toBe(2); // ROLE_AGENT
    expect(message.contextId).not.toBe(""); // generated: the request had none
    expect(GradeRecordSchema.parse(dataOf(message.parts))).toEqual(rest.json);
    expect(textOf(message.parts)).toContain(`grade ${rest.json.grade}`);
    expect(await balance()).toBe(before - 25);
    expect(await auditEvents("hipaa.grade")).toContainEqual({
      action: "hipaa.grade",
      transport: "a2a",
      status: 200,
      resource: `practice:${GRADED_NPI}`,
    });
  });

  it("the skill may be named in message.metadata.skill with the data part as its params; the contextId is kept", async () => {
    const message = userMessage([dataPart({ npi: GRADED_NPI })], {
      contextId: "ctx-metadata-form",
      metadata: { skill: "hipaa.grade" },
    });
    const result = await client.sendMessage({ tenant: "", message, configuration: undefined, metadata: undefined });
    expect(isMessage(result) && result.contextId).toBe("ctx-metadata-form");
    expect(dataOf((result as Message).parts)).toMatchObject({ npi: GRADED_NPI });
  });

  it("SendMessage to hipaa.scan with returnImmediately answers a submitted task; GetTask follows it to COMPLETED with the job's result as artifact", async () => {
    const practice = samples.practices[0]!;
    const before = await balance();
    const sent = await client.sendMessage(
      skillRequest("hipaa.scan", { npi: practice.npi }, { contextId: "ctx-scan-follow", returnImmediately: true }),
    );
    expect(isMessage(sent)).toBe(false);
    const task = sent as Task;
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]).toContain(task.status?.state);
    expect(task.contextId).toBe("ctx-scan-follow");
    expect(task.metadata).toMatchObject({
      skill: "hipaa.scan",
      npi: practice.npi,
      poll_url: `/v1/a2a/jobs/${task.id}`,
    });
    expect(await balance()).toBe(before - 150);

    const done = await followToEnd(task.id);
    expect(done.status?.state, textOf(done.status?.message?.parts ?? [])).toBe(TaskState.TASK_STATE_COMPLETED);
    const job = JobSchema.parse(
      (await t.request(`/v1/a2a/jobs/${task.id}`, { headers: { "X-API-Key": owner.apiKey } })).json,
    );
    expect(job.a2a_context_id).toBe("ctx-scan-follow");
    expect(done.artifacts).toHaveLength(1);
    expect(dataOf(done.artifacts[0]!.parts)).toEqual(job.result);
    expect(textOf(done.status!.message!.parts)).toContain(`grade ${job.result!.grade}`);
    expect(done.contextId).toBe("ctx-scan-follow");
    const scans = await auditEvents("hipaa.scan");
    expect(scans.some((e) => e.status === 202 && e.resource === `practice:${practice.npi}`)).toBe(true);
    expect((await auditEvents("getJob")).some((e) => e.resource === `job:${task.id}`)).toBe(true);
  }, 90_000);

  it("the default SendMessage blocks until the task has ended and answers it terminal, with its artifact", async () => {
    const practice = samples.practices[1]!;
    const sent = await client.sendMessage(
      skillRequest("hipaa.scan", { npi: practice.npi }, { contextId: "ctx-blocking" }),
    );
    const task = sent as Task;
    expect(task.status?.state, textOf(task.status?.message?.parts ?? [])).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(dataOf(task.artifacts[0]!.parts)).toMatchObject({ npi: practice.npi });
  }, 60_000);

  it("ListTasks lists the caller's tasks newest first, filters by contextId and state, and pages", async () => {
    const all = await client.listTasks({
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: "",
      statusTimestampAfter: undefined,
    });
    expect(all.totalSize).toBe(2);
    expect(all.tasks.map((x) => x.contextId)).toEqual(["ctx-blocking", "ctx-scan-follow"]);
    expect(all.tasks.every((x) => x.artifacts.length === 0)).toBe(true); // includeArtifacts defaults to false
    expect(all.nextPageToken).toBe("");

    const one = await client.listTasks({
      tenant: "",
      contextId: "ctx-scan-follow",
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: "",
      statusTimestampAfter: undefined,
      includeArtifacts: true,
    });
    expect(one.tasks).toHaveLength(1);
    expect(one.tasks[0]!.contextId).toBe("ctx-scan-follow");
    expect(one.tasks[0]!.artifacts).toHaveLength(1);

    const first = await client.listTasks({
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_COMPLETED,
      pageSize: 1,
      pageToken: "",
      statusTimestampAfter: undefined,
    });
    expect([first.tasks.length, first.pageSize, first.totalSize]).toEqual([1, 1, 2]);
    const second = await client.listTasks({
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_COMPLETED,
      pageSize: 1,
      pageToken: first.nextPageToken,
      statusTimestampAfter: undefined,
    });
    expect(second.tasks.map((x) => x.contextId)).toEqual(["ctx-scan-follow"]);
    expect(second.nextPageToken).toBe("");

    const none = await client.listTasks({
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_CANCELED,
      pageToken: "",
      statusTimestampAfter: undefined,
    });
    expect([none.tasks.length, none.totalSize]).toEqual([0, 0]);
  });

  it("another account sees none of these tasks: ListTasks is empty and GetTask is TaskNotFound", async () => {
    const other = await accountWithKey(t.server.deps, { credits: 100 });
    const theirs = await a2aClientFromCard(t.url, t.ca, other.apiKey);
    const listed = await theirs.listTasks({
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: "",
      statusTimestampAfter: undefined,
    });
    expect(listed.tasks).toEqual([]);
    const [mine] = (
      await client.listTasks({
        tenant: "",
        contextId: "ctx-blocking",
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageToken: "",
        statusTimestampAfter: undefined,
      })
    ).tasks;
    await expect(theirs.getTask({ tenant: "", id: mine!.id })).rejects.toMatchObject({
      name: "TaskNotFoundError",
      envelopeCode: -32001,
      data: { code: "job_not_found", http_status: 404 },
    });
  });

  it("GetTask of an unknown or malformed id is TaskNotFound (-32001, data.code job_not_found)", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-task"])
      await expect(client.getTask({ tenant: "", id })).rejects.toMatchObject({
        name: "TaskNotFoundError",
        envelopeCode: -32001,
        data: { code: "job_not_found" },
      });
  });

  it("CancelTask of a completed task is TaskNotCancelable (-32002, data.code conflict)", async () => {
    const [done] = (
      await client.listTasks({
        tenant: "",
        contextId: "ctx-scan-follow",
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageToken: "",
        statusTimestampAfter: undefined,
      })
    ).tasks;
    await expect(client.cancelTask({ tenant: "", id: done!.id, metadata: undefined })).rejects.toMatchObject({
      name: "TaskNotCancelableError",
      envelopeCode: -32002,
      data: { code: "conflict", http_status: 409, details: { status: "completed" } },
    });
  });

  it("a call the operation refuses is its documented JSON-RPC error: a bad NPI is -32602 invalid_npi, uncharged", async () => {
    const before = await balance();
    await expect(client.sendMessage(skillRequest("hipaa.grade", { npi: "1234567890" }))).rejects.toMatchObject({
      envelopeCode: -32602,
      data: { code: "invalid_npi", http_status: 400 },
    });
    await expect(client.sendMessage(skillRequest("hipaa.scan", { npi: "1306849450" }))).rejects.toMatchObject({
      envelopeCode: -32014,
      data: { code: "npi_not_found" },
    });
    await expect(client.sendMessage(skillRequest("hipaa.nope", {}))).rejects.toMatchObject({
      envelopeCode: -32602,
      data: { code: "invalid_body", details: { skill: "hipaa.nope", skills: expect.arrayContaining(["hipaa.grade"]) } },
    });
    expect(await balance()).toBe(before);
  });
});
