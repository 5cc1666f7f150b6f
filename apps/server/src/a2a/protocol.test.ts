import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

/*
 * A2A v1.0's JSON-RPC binding on /api/a2a, read off the wire: version negotiation, the methods this agent does not
 * serve, and messages it cannot take — each answered with the error A2A prescribes.
 */

let t: TestServer;
let key: string;
const NPI = "1234567893";

beforeAll(async () => {
  t = await startTestServer();
  const a = await accountWithKey(t.server.deps, { credits: 10_000, tier: "bulk" });
  key = a.apiKey;
  await gradedPractice(t.server.deps, a.accountId, NPI);
});
afterAll(async () => {
  await t.close();
});

const rpc = (body: unknown, headers: Record<string, string> = { "A2A-Version": "1.0" }) =>
  t.request("/api/a2a", { method: "POST", headers: { "X-API-Key": key, ...headers }, body });
const call = (method: string, params: unknown, id: unknown = 1) => ({ jsonrpc: "2.0", id, method, params });
const gradeMessage = (extra: Record<string, unknown> = {}) => ({
  message: {
    messageId: "m-1",
    role: "ROLE_USER",
    parts: [{ data: { skill: "hipaa.grade", params: { npi: NPI } } }],
    ...extra,
  },
});

describe("A2A-Version negotiation (A2A v1.0 §3.6)", () => {
  it("1.0 is served; a patch number does not count", async () => {
    for (const version of ["1.0", "1.0.2", " 1.0 "]) {
      const res = await rpc(call("SendMessage", gradeMessage()), { "A2A-Version": version });
      expect(res.json.result.message.parts[1].data.npi, version).toBe(NPI);
    }
  });

  it("an absent header reads as 0.3, which like any other version is VersionNotSupported (-32009)", async () => {
    for (const headers of <Record<string, string>[]>[
      {},
      { "A2A-Version": "0.3" },
      { "A2A-Version": "1.1" },
      { "A2A-Version": "2.0" },
      { "A2A-Version": "latest" },
    ]) {
      const res = await rpc(call("GetTask", { id: "x" }), headers);
      expect(res.json.error, JSON.stringify(headers)).toMatchObject({
        code: -32009,
        data: { supported_versions: ["1.0"] },
      });
      expect(res.json.error.message).toContain("A2A-Version: 1.0");
    }
    expect((await rpc(call("ListTasks", {}), {})).json.error.data.requested_version).toBe("0.3");
  });

  it("the header concerns the A2A methods only: hipaa.* methods answer without it", async () => {
    expect((await rpc(call("hipaa.grade", { npi: NPI }), {})).json.result.npi).toBe(NPI);
  });
});

describe("methods A2A defines that this agent does not serve", () => {
  it.each([
    ["SendStreamingMessage", -32004],
    ["SubscribeToTask", -32004],
    ["GetExtendedAgentCard", -32004],
    ["CreateTaskPushNotificationConfig", -32003],
    ["GetTaskPushNotificationConfig", -32003],
    ["ListTaskPushNotificationConfigs", -32003],
    ["DeleteTaskPushNotificationConfig", -32003],
  ])("%s → %i (never -32601)", async (method, code) => {
    const res = await rpc(call(method, {}));
    expect(res.json.error.code).toBe(code);
  });

  it("legacy v0.3 method names are not A2A v1.0 methods: -32601", async () => {
    expect((await rpc(call("message/send", gradeMessage()))).json.error.code).toBe(-32601);
  });
});

describe("messages SendMessage cannot take", () => {
  it.each([
    [
      "push notification config",
      { ...gradeMessage(), configuration: { taskPushNotificationConfig: { url: "https://x" } } },
      -32003,
    ],
    ["a follow-up on a task", gradeMessage({ taskId: "3f7e0c5e-0000-4000-8000-000000000000" }), -32004],
    [
      "a file part",
      gradeMessage({ parts: [{ url: "https://example.com/a.pdf", mediaType: "application/pdf" }] }),
      -32005,
    ],
    [
      "a non-JSON data part",
      gradeMessage({ parts: [{ data: { skill: "hipaa.grade" }, mediaType: "text/csv" }] }),
      -32005,
    ],
    ["output modes without JSON", { ...gradeMessage(), configuration: { acceptedOutputModes: ["text/html"] } }, -32005],
    ["no skill named", gradeMessage({ parts: [{ text: "grade 1234567893 please" }] }), -32602],
    ["two data parts", gradeMessage({ parts: [{ data: { skill: "hipaa.grade" } }, { data: {} }] }), -32602],
    [
      "params that are not an object",
      gradeMessage({ parts: [{ data: { skill: "hipaa.grade", params: [NPI] } }] }),
      -32602,
    ],
    ["no messageId", { message: { role: "ROLE_USER", parts: [{ data: { skill: "hipaa.grade" } }] } }, -32602],
    ["an agent's role", gradeMessage({ role: "ROLE_AGENT" }), -32602],
    ["a part with two contents", gradeMessage({ parts: [{ text: "a", data: {} }] }), -32602],
    ["positional params", [gradeMessage()], -32602],
  ])("%s → %i", async (_name, params, code) => {
    const res = await rpc(call("SendMessage", params));
    expect(res.json.error.code).toBe(code);
    if (code === -32602) expect(res.json.error.data.code).toBe("invalid_body");
  });

  it("metadata.skill and a data part naming different skills is refused", async () => {
    const res = await rpc(call("SendMessage", gradeMessage({ metadata: { skill: "hipaa.findings" } })));
    expect(res.json.error).toMatchObject({ code: -32602, data: { code: "invalid_body" } });
  });
});

describe("the protobuf JSON SendMessage reads", () => {
  it("takes fields by their proto names and enums by number; text parts beside the call are ignored", async () => {
    const res = await rpc(
      call("SendMessage", {
        message: {
          message_id: "m-proto",
          context_id: "ctx-proto",
          role: 1,
          parts: [
            { text: "please grade" },
            { data: { skill: "hipaa.grade", params: { npi: NPI } }, media_type: "application/json" },
          ],
        },
        configuration: { return_immediately: true, accepted_output_modes: ["application/json"] },
      }),
    );
    expect(res.json.result.message).toMatchObject({
      contextId: "ctx-proto",
      role: "ROLE_AGENT",
      metadata: { skill: "hipaa.grade" },
    });
  });

  it("A2A methods and hipaa.* methods share a batch, each answered by id", async () => {
    const res = await rpc([
      call("SendMessage", gradeMessage(), "a2a"),
      call("hipaa.grade", { npi: NPI }, "rpc"),
      call("GetTask", { id: "nope" }, "task"),
    ]);
    // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC responses read by shape
    const byId: Record<string, any> = Object.fromEntries((res.json as { id: string }[]).map((e) => [e.id, e]));
    expect(byId.a2a.result.message.parts[1].data.npi).toBe(NPI);
    expect(byId.rpc.result.npi).toBe(NPI);
    expect(byId.task.error.code).toBe(-32001);
  });

  it("a REST-style body (no jsonrpc member) answers an A2A error with its HCS code and status", async () => {
    const missing = await rpc({ method: "GetTask", params: { id: "00000000-0000-4000-8000-000000000000" } });
    expect([missing.status, missing.json.error.code]).toEqual([404, "job_not_found"]);
    const version = await rpc({ method: "GetTask", params: { id: "x" } }, {});
    expect([version.status, version.json.error.code]).toEqual([400, "invalid_body"]);
    const ok = await rpc({ method: "SendMessage", params: gradeMessage() });
    expect([ok.status, ok.json.message.parts[1].data.npi]).toEqual([200, NPI]);
  });

  it("without a key, a task method is missing_credentials (-32011), not TaskNotFound", async () => {
    const res = await t.request("/api/a2a", {
      method: "POST",
      headers: { "A2A-Version": "1.0" },
      body: call("GetTask", { id: "00000000-0000-4000-8000-000000000000" }),
    });
    expect(res.json.error).toMatchObject({ code: -32011, data: { code: "missing_credentials" } });
  });
});
