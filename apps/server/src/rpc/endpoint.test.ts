import { GradeRecordSchema, JSONRPC_ERRORS } from "@hcs/protocol";
import { JSONRPCClient, JSONRPCErrorException, type JSONRPCResponse } from "json-rpc-2.0";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAccount } from "../services/accounts.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

let t: TestServer;
let key: string;
let accountId: string;
const NPI = "1234567893";

beforeAll(async () => {
  t = await startTestServer();
  const a = await accountWithKey(t.server.deps, { credits: 100_000, tier: "bulk" });
  key = a.apiKey;
  accountId = a.accountId;
  await gradedPractice(t.server.deps, accountId, NPI);
});
afterAll(async () => {
  await t.close();
});

/** POSTs raw text to /api/a2a as the test account. */
const rpc = (body: string, headers: Record<string, string> = {}) =>
  t.request("/api/a2a", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-API-Key": key, ...headers },
    body,
  });
const call = (method: string, params: unknown, id: unknown = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });
const balance = async () => (await getAccount(t.server.deps, accountId)).credits;

describe("JSON-RPC 2.0 at POST /api/a2a, as the specification reads", () => {
  it("a parse error is one object with id null", async () => {
    const res = await rpc('{"jsonrpc": "2.0", "method": "hipaa.grade", "params": [');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32700 }) });
  });

  it("[] is one Invalid Request object; [1,2,3] is three", async () => {
    const empty = await rpc("[]");
    expect(empty.json).toEqual({ jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) });
    const three = await rpc("[1,2,3]");
    expect(three.json).toHaveLength(3);
    for (const e of three.json)
      expect(e).toEqual({ jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) });
  });

  it("echoes string and number ids, answers id null, refuses other jsonrpc versions and unusable ids", async () => {
    expect((await rpc(call("hipaa.grade", { npi: NPI }, "abc-1"))).json).toMatchObject({
      id: "abc-1",
      result: { npi: NPI },
    });
    expect((await rpc(call("hipaa.grade", { npi: NPI }, 42))).json).toMatchObject({ id: 42, result: { npi: NPI } });
    expect((await rpc(call("hipaa.grade", { npi: NPI }, null))).json).toMatchObject({ id: null, result: { npi: NPI } });
    const v1 = await rpc(JSON.stringify({ jsonrpc: "1.0", id: 7, method: "hipaa.grade", params: { npi: NPI } }));
    expect(v1.json).toMatchObject({ id: 7, error: { code: -32600 } });
    const objectId = await rpc(JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, method: "hipaa.grade", params: {} }));
    expect(objectId.json).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it("unknown methods are -32601; schema failures -32602 with the issues; HCS errors keep their string code", async () => {
    expect((await rpc(call("hipaa.nope", {}))).json).toMatchObject({
      error: { code: JSONRPC_ERRORS.method_not_found },
    });
    const bad = await rpc(call("hipaa.grade", { npi: NPI, extra: 1 }));
    expect(bad.json.error.code).toBe(-32602);
    expect(bad.json.error.data).toMatchObject({ code: "invalid_body", http_status: 400 });
    expect(bad.json.error.data.details.issues.length).toBeGreaterThan(0);
    const npi = await rpc(call("hipaa.grade", { npi: "1234567890" }));
    expect(npi.json.error).toMatchObject({ code: -32602, data: { code: "invalid_npi" } });
    const unknown = await rpc(call("hipaa.grade", { npi: "1306849450" }));
    expect(unknown.json.error).toMatchObject({ code: -32014, data: { code: "npi_not_found", http_status: 404 } });
    const positional = await rpc(call("hipaa.grade", [NPI]));
    expect(positional.json.error.code).toBe(-32602);
  });

  it("notifications are never answered and never run; an all-notification batch answers 204", async () => {
    const before = await balance();
    const single = await rpc(JSON.stringify({ jsonrpc: "2.0", method: "hipaa.grade", params: { npi: NPI } }));
    expect([single.status, single.text]).toEqual([204, ""]);
    const batch = await rpc(
      JSON.stringify([
        { jsonrpc: "2.0", method: "hipaa.grade", params: { npi: NPI } },
        { jsonrpc: "2.0", method: "hipaa.grade", params: { npi: NPI } },
      ]),
    );
    expect([batch.status, batch.text]).toEqual([204, ""]);
    // Not run: nothing charged (rpc/wire-exactness.test.ts checks every kind of method on both engines).
    expect(await balance()).toBe(before);
    const mixed = await rpc(
      JSON.stringify([
        { jsonrpc: "2.0", method: "hipaa.grade", params: { npi: NPI } },
        { jsonrpc: "2.0", id: "x", method: "hipaa.reputation" },
      ]),
    );
    expect(mixed.json).toEqual([expect.objectContaining({ id: "x", result: expect.any(Object) })]);
  });

  it("a batch: each entry counted and charged on its own, audited as jsonrpc; more than 50 is refused whole", async () => {
    const before = await balance();
    const remainingBefore = Number((await rpc(call("hipaa.reputation", {}))).headers["x-ratelimit-remaining"]);
    const res = await rpc(JSON.stringify([1, 2, 3].map((i) => JSON.parse(call("hipaa.grade", { npi: NPI }, i)))));
    expect(res.json.map((r: { id: number }) => r.id).sort()).toEqual([1, 2, 3]);
    for (const r of res.json) GradeRecordSchema.parse(r.result);
    expect(await balance()).toBe(before - 75);
    expect(Number(res.headers["x-ratelimit-remaining"])).toBe(remainingBefore - 3);
    const rid = res.headers["x-request-id"] as string;
    const events = await t.server.deps.store.db
      .selectFrom("audit_events")
      .select(["request_id", "action", "transport"])
      .where("request_id", "like", `${rid}.%`)
      .execute();
    expect(events).toHaveLength(3);
    expect(events.every((e) => e.action === "hipaa.grade" && e.transport === "jsonrpc")).toBe(true);
    const tooBig = await rpc(
      JSON.stringify(Array.from({ length: 51 }, (_, i) => JSON.parse(call("hipaa.reputation", {}, i)))),
    );
    expect(tooBig.json).toMatchObject({
      id: null,
      error: { code: -32600, data: { code: "invalid_body", details: { max_batch_size: 50, batch_size: 51 } } },
    });
  });

  it("REST-style bodies (no jsonrpc member) get the plain result or the error body with its status", async () => {
    const ok = await rpc(JSON.stringify({ method: "hipaa.grade", params: { npi: NPI } }));
    expect(ok.status).toBe(200);
    expect(GradeRecordSchema.parse(ok.json).npi).toBe(NPI);
    expect(ok.headers["x-credits-charged"]).toBe("25");
    const missing = await rpc(JSON.stringify({ method: "hipaa.grade", params: { npi: "1306849450" } }));
    expect([missing.status, missing.json.error.code]).toEqual([404, "npi_not_found"]);
    const unknown = await rpc(JSON.stringify({ method: "hipaa.nope", params: {} }));
    expect([unknown.status, unknown.json.error.code]).toEqual([404, "not_found"]);
  });

  it("takes the key as Bearer too; without one, calls are refused per entry (and counted per address)", async () => {
    const bearer = await rpc(call("hipaa.grade", { npi: NPI }), { "X-API-Key": "", Authorization: `Bearer ${key}` });
    expect(bearer.json.result.npi).toBe(NPI);
    const anonymous = await t.request("/api/a2a", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: call("hipaa.grade", { npi: NPI }),
    });
    expect(anonymous.json.error).toMatchObject({
      code: -32011,
      data: { code: "missing_credentials", http_status: 401 },
    });
    expect(anonymous.headers["x-ratelimit-limit"]).toBe("60");
    const form = await t.request("/api/a2a", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "x" });
    expect([form.status, form.json.error.code]).toEqual([415, "unsupported_media_type"]);
  });
});

describe("an independent JSON-RPC client library (json-rpc-2.0 from npm)", () => {
  const client = () =>
    new JSONRPCClient(async (request) => {
      const res = await rpc(JSON.stringify(request));
      if (res.status === 200) client_.receive(res.json);
      else if (request.id !== undefined) throw new Error(res.text);
    });
  let client_: JSONRPCClient;

  it("calls single methods and batches, and surfaces HCS errors with their data", async () => {
    client_ = client();
    const grade = GradeRecordSchema.parse(await client_.request("hipaa.grade", { npi: NPI }));
    expect(grade.npi).toBe(NPI);
    const responses: JSONRPCResponse[] = await client_.requestAdvanced([
      { jsonrpc: "2.0", id: 1, method: "hipaa.grade", params: { npi: NPI } },
      { jsonrpc: "2.0", id: 2, method: "hipaa.reputation", params: {} },
      { jsonrpc: "2.0", id: 3, method: "hipaa.grade", params: { npi: "1306849450" } },
    ]);
    const byId = Object.fromEntries(responses.map((r) => [r.id, r]));
    expect(byId[1]!.result).toMatchObject({ npi: NPI });
    expect(byId[2]!.result).toHaveProperty("sha256");
    expect(byId[3]!.error).toMatchObject({ code: -32014, data: { code: "npi_not_found" } });
    await expect(client_.request("hipaa.grade", { npi: "1234567890" })).rejects.toBeInstanceOf(JSONRPCErrorException);
  });
});

describe("credits under concurrency", () => {
  it("100 concurrent JSON-RPC calls on 500 credits: exactly 20 succeed", async () => {
    const poor = await accountWithKey(t.server.deps, { credits: 500, tier: "bulk" });
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => rpc(call("hipaa.grade", { npi: NPI }, i), { "X-API-Key": poor.apiKey })),
    );
    const results = responses.map((r) => r.json);
    expect(results.filter((r) => r.result)).toHaveLength(20);
    expect(results.filter((r) => r.error?.data?.code === "insufficient_credits")).toHaveLength(80);
    expect((await getAccount(t.server.deps, poor.accountId)).credits).toBe(0);
  });
});
