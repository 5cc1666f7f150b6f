import { request as httpsRequest } from "node:https";
import { type FindingParsed, FindingsPageSchema, GradeRecordSchema } from "@hcs/protocol";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { agentSkills } from "../a2a/agent-card.js";
import { httpRequestTo, type TestResponse } from "../lab/https-client.js";
import { mcpToolName } from "../operations/operation.js";
import { CATALOGUE } from "../routes/catalogue.js";
import { getAccount } from "../services/accounts.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

// A fixed clock 10 s into a minute: every request of a test falls in one rate-limit window.
const NOW = new Date("2026-11-22T12:00:10.000Z");
const NPI = "1234567893";

let t: TestServer;
let owner: Awaited<ReturnType<typeof accountWithKey>>;
let reader: Awaited<ReturnType<typeof accountWithKey>>;
/** The answers the MCP client got, newest last (for their headers). */
const responses: TestResponse[] = [];

const finding = (n: number, severity: FindingParsed["severity"]): FindingParsed => ({
  id: `email.test_${n}:p${NPI}.example`,
  check_id: `email.test_${n}`,
  source: "external",
  category: "email_security",
  severity,
  title: `Test finding ${n}`,
  detail: "A finding made for this test.",
  evidence: {},
  remediation: "Publish a DMARC record with p=reject.",
  controls: ["164.312(e)(1)"],
});

beforeAll(async () => {
  t = await startTestServer({ now: () => NOW });
  owner = await accountWithKey(t.server.deps, { credits: 500 });
  reader = await accountWithKey(t.server.deps, { credits: 500 });
  await gradedPractice(t.server.deps, owner.accountId, NPI, [finding(1, "critical"), finding(2, "low")]);
});
afterAll(async () => {
  await t.close();
});

/** A fetch for the SDK's transport that trusts the test CA (Node's global fetch cannot take one) and keeps answers. */
const fetchTrustingCa: typeof fetch = async (input, init) => {
  const res = await httpRequestTo(String(input), {
    ca: t.ca,
    method: init?.method ?? "GET",
    headers: Object.fromEntries(new Headers(init?.headers).entries()),
    ...(typeof init?.body === "string" ? { body: init.body } : {}),
  });
  responses.push(res);
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) if (typeof value === "string") headers.set(name, value);
  return new Response([204, 205, 304].includes(res.status) ? null : res.text, { status: res.status, headers });
};

/** A real MCP client over Streamable HTTP, authenticated with `key` in X-API-Key. */
async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "hcs-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
    fetch: fetchTrustingCa,
    requestInit: { headers: { "X-API-Key": key } },
  });
  await client.connect(transport);
  return client;
}

const balance = async (accountId: string) => (await getAccount(t.server.deps, accountId)).credits;
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
/**
 * A POST to /mcp naming another Host, as a browser page whose name was rebound to the server's address sends it
 * (TLS is still verified against the certificate's own name, as that browser would have accepted some certificate).
 */
function postWithHost(host: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `${t.url}/mcp`,
      {
        method: "POST",
        ca: t.ca,
        servername: "localhost",
        headers: {
          ...headers,
          Host: host,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
      },
      (res) => {
        let body = "";
        res.on("data", (d: Buffer) => {
          body += d.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(initialize);
  });
}

/** A raw POST to /mcp, for what happens before (or instead of) MCP processing. */
const post = (headers: Record<string, string>, body = initialize) =>
  t.request("/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body,
  });

describe("MCP over Streamable HTTP at /mcp (the SDK's Client)", () => {
  it("lists exactly the served agent methods as hipaa_* tools, with the catalogue's schemas and truthful hints", async () => {
    const client = await connect(owner.apiKey);
    const { tools } = await client.listTools();
    const served = agentSkills(CATALOGUE.operations);
    expect(tools.map((tool) => tool.name)).toEqual(served.map((op) => mcpToolName(op.method!)));
    for (const tool of tools) {
      expect(tool.name).toMatch(/^hipaa_[a-z_]+$/);
      expect(tool.title && tool.description).toBeTruthy();
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get("hipaa_grade")!.inputSchema).toMatchObject({ required: ["npi"], additionalProperties: false });
    // A grade record or the directory's not_yet_assessed answer: the outline lists the fields of both, requires what
    // both have.
    expect(Object.keys(byName.get("hipaa_grade")!.outputSchema!.properties ?? {})).toContain("compliance_score");
    expect(byName.get("hipaa_grade")!.outputSchema!.required).toEqual(["npi", "practice_name"]);
    expect(byName.get("hipaa_grade")!.description).toContain("25 credits");
    expect(byName.get("hipaa_grade")!.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false, // every call takes credits
      openWorldHint: false,
    });
    expect(byName.get("hipaa_get_controls")!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(byName.get("hipaa_scan")!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true, // a scan contacts the practice's hosts
    });
    // Tools that change something: a scan (creates a job), the SRA (stores a new version), policies (new versions),
    // BAAs (records; `remove` deletes one, so it alone is declared destructive in the catalogue) and vendor risk
    // (scans vendor domains, stores their grades and charges the scans), and adding a practice (a claim; with verify,
    // its proof checked on the domain). tool-contracts.test.ts checks each hint against what the call does to the store.
    expect(tools.filter((tool) => !tool.annotations?.readOnlyHint).map((tool) => tool.name)).toEqual([
      "hipaa_scan",
      "hipaa_sra",
      "hipaa_policies",
      "hipaa_baa",
      "hipaa_vendor_risk",
      "hipaa_claim_practice",
    ]);
    expect(byName.get("hipaa_policies")!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools.filter((tool) => tool.annotations?.destructiveHint).map((tool) => tool.name)).toEqual(
      served.filter((op) => op.destructive).map((op) => mcpToolName(op.method!)),
    );
    await client.close();
  });

  it("hipaa_grade: the REST grade record as structuredContent, a readable summary, 25 credits charged and audited", async () => {
    const rest = await t.request(`/v1/a2a/grade/${NPI}`, { headers: { "X-API-Key": reader.apiKey } });
    expect(rest.status).toBe(200);
    const client = await connect(owner.apiKey);
    const before = await balance(owner.accountId);
    const result = await client.callTool({ name: "hipaa_grade", arguments: { npi: NPI } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(rest.json);
    GradeRecordSchema.parse(result.structuredContent);
    const text = (result.content as { type: string; text: string }[])[0]!;
    expect(text.type).toBe("text");
    expect(text.text).toMatch(
      new RegExp(
        `^Practice ${NPI} \\(NPI ${NPI}\\) has grade [A-F], \\d+/100, as of 2026-11-22\\. Weakest: email security \\d+`,
      ),
    );
    expect(await balance(owner.accountId)).toBe(before - 25);
    expect(result._meta?.["hcs/call"]).toMatchObject({ credits_charged: 25, credits_remaining: before - 25 });
    const requestId = responses.at(-1)!.headers["x-request-id"] as string;
    const event = await t.server.deps.store.db
      .selectFrom("audit_events")
      .select(["action", "transport", "actor_key_id", "status"])
      .where("request_id", "=", requestId)
      .executeTakeFirstOrThrow();
    expect(event).toEqual({ action: "hipaa.grade", transport: "mcp", actor_key_id: owner.keyId, status: 200 });
    await client.close();
  });

  it("hipaa_findings: the owner's findings page, most severe first, with a summary; 25 credits", async () => {
    const client = await connect(owner.apiKey);
    const before = await balance(owner.accountId);
    const result = await client.callTool({ name: "hipaa_findings", arguments: { npi: NPI, severity: ["critical"] } });
    expect(result.isError).toBeFalsy();
    const page = FindingsPageSchema.parse(result.structuredContent);
    expect(page.findings.map((f) => f.id)).toEqual([`email.test_1:p${NPI}.example`]);
    expect((result.content as { text: string }[])[0]!.text).toBe(
      `1 open finding for NPI ${NPI}: 1 critical. Most severe: "Test finding 1" (critical, email security; HIPAA ` +
        "164.312(e)(1)). Fix: Publish a DMARC record with p=reject.",
    );
    expect(await balance(owner.accountId)).toBe(before - 25);
    await client.close();
  });

  it("a bad NPI is an isError tool result (not a transport or protocol error), with its code, and costs nothing", async () => {
    const client = await connect(owner.apiKey);
    const before = await balance(owner.accountId);
    const result = await client.callTool({ name: "hipaa_grade", arguments: { npi: "1234567890" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result._meta?.["hcs/error"]).toMatchObject({ code: "invalid_npi" });
    expect((result.content as { text: string }[])[0]!.text).toMatch(/^hipaa_grade failed \(invalid_npi\): /);
    expect(await balance(owner.accountId)).toBe(before);
    await client.close();
    // Findings of a practice another account owns: refused as REST refuses them (403 forbidden there).
    const other = await connect(reader.apiKey);
    const refused = await other.callTool({ name: "hipaa_findings", arguments: { npi: NPI } });
    expect(refused).toMatchObject({ isError: true, _meta: { "hcs/error": { code: "forbidden" } } });
    await other.close();
  });

  it("short of credits: an isError result that says what the call needs; a tool that does not exist: -32602", async () => {
    const poor = await accountWithKey(t.server.deps, { credits: 10 });
    const client = await connect(poor.apiKey);
    const result = await client.callTool({ name: "hipaa_grade", arguments: { npi: NPI } });
    expect(result).toMatchObject({
      isError: true,
      _meta: { "hcs/error": { code: "insufficient_credits", details: { required: 25, balance: 10 } } },
    });
    expect((result.content as { text: string }[])[0]!.text).toContain("needs 25 credits and the account has 10");
    await expect(client.callTool({ name: "hipaa_nothing", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: "hipaa_nothing", arguments: {} })).rejects.toBeInstanceOf(McpError);
    await client.close();
  });
});

describe("/mcp before any MCP processing", () => {
  it("401 without a key or with a wrong one, for initialize too, with WWW-Authenticate and rate-limit headers", async () => {
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.json.error.code).toBe("missing_credentials");
    expect(missing.headers["www-authenticate"]).toBe('Bearer realm="hcs"');
    expect(missing.headers["x-ratelimit-limit"]).toBe("60");
    const wrong = await post({ "X-API-Key": "hcs_live_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB" });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.code).toBe("invalid_credentials");
    expect(wrong.headers["www-authenticate"]).toContain('error="invalid_token"');
    // The SDK's client sees the same refusal as a failed connection, not as an MCP session.
    await expect(connect("hcs_live_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB")).rejects.toMatchObject({
      code: 401,
    });
  });

  it("takes the key as Authorization: Bearer too", async () => {
    const res = await post({ Authorization: `Bearer ${owner.apiKey}` });
    expect(res.status).toBe(200);
    expect(res.json.result.serverInfo).toMatchObject({ name: "hcs" });
    expect(res.json.result.capabilities.tools).toEqual({});
  });

  it("403 for a web page of another origin or a Host the server does not answer to (DNS rebinding)", async () => {
    const key = { "X-API-Key": owner.apiKey };
    const foreign = await post({ ...key, Origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.json.error).toMatchObject({ code: "forbidden", details: { origin: "https://evil.example" } });
    expect(foreign.headers["x-ratelimit-remaining"]).toBeDefined();
    const rebound = await postWithHost("evil.example:8443", key);
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error).toMatchObject({ code: "forbidden", details: { host: "evil.example:8443" } });
    // The server's own origin and the names it answers to pass.
    expect((await post({ ...key, Origin: t.url })).status).toBe(200);
    expect((await postWithHost(`localhost:${t.server.port}`, key)).status).toBe(200);
    expect((await postWithHost(`[::1]:${t.server.port}`, key)).status).toBe(200);
  });

  it("GET and DELETE answer 405 (a stateless server offers no stream and no session)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await t.request("/mcp", { method, headers: { "X-API-Key": owner.apiKey } });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe("POST");
      expect(res.json.error.code).toBe("method_not_allowed");
      expect(res.headers["x-ratelimit-limit"]).toBe("60");
    }
  });

  it("a body that is not JSON, or a client that does not accept both answer forms, gets the transport's error, counted", async () => {
    const res = await post({ "X-API-Key": owner.apiKey }, '{"jsonrpc": "2.0", "method": ');
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32700);
    expect(res.headers["x-ratelimit-remaining"]).toBeDefined();
    // A client that cannot take both answer forms is refused by the transport (406), and counted all the same.
    const call = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "hipaa_grade" } });
    const picky = await post({ "X-API-Key": owner.apiKey, Accept: "application/json" }, call);
    expect(picky.status).toBe(406);
    expect(Number(picky.headers["x-ratelimit-remaining"])).toBe(Number(res.headers["x-ratelimit-remaining"]) - 1);
  });
});

describe("rate limits over MCP", () => {
  it("protocol messages count once per request, tool calls through invoke; past 60 a call is an isError rate_limited", async () => {
    const a = await accountWithKey(t.server.deps, { credits: 0 });
    const seen = responses.length;
    // Connecting costs three requests: initialize, notifications/initialized, and the GET for a server stream that
    // the SDK's client tries (405: a stateless server offers none). The GET is not awaited by connect().
    const client = await connect(a.apiKey);
    await vi.waitFor(() => expect(responses.slice(seen).some((r) => r.status === 405)).toBe(true));
    const connection = responses.slice(seen);
    expect(connection.map((r) => r.status).sort()).toEqual([200, 202, 405]);
    expect(connection.map((r) => r.headers["x-ratelimit-remaining"]).sort()).toEqual(["57", "58", "59"]);
    const args = { name: "hipaa_get_controls", arguments: { ids: ["164.312(d)"] } };
    for (let i = 1; i <= 57; i++) {
      const ok = await client.callTool(args);
      expect(ok.isError, `call ${i}: ${JSON.stringify(ok._meta)}`).toBeFalsy();
    }
    expect(responses.at(-1)!.headers["x-ratelimit-remaining"]).toBe("0");
    const limited = await client.callTool(args);
    expect(limited).toMatchObject({
      isError: true,
      _meta: { "hcs/error": { code: "rate_limited", details: { limit: 60 } } },
    });
    expect((limited.content as { text: string }[])[0]!.text).toMatch(/Try again in \d+ s\.$/);
    // A protocol message past the limit is refused before it is processed: HTTP 429 with Retry-After.
    await expect(client.listTools()).rejects.toMatchObject({ code: 429 });
    expect(responses.at(-1)!.headers["retry-after"]).toBe("50");
    await client.close();
  });
});
