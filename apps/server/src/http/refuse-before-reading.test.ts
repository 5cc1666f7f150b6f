import { connect } from "node:tls";
import { MAX_ANONYMOUS_REQUEST_BYTES, MAX_JSON_DEPTH } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enrolledPracticeFor } from "../test-support/enrolled-practice.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { scanDocumentAbout } from "../test-support/scan-documents.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

const NPI = "1234567893";
// POST /api/a2a is served ahead of Koa on its plain path (http/hot-routes.ts) and through Koa with a query string.
const RPC_PATHS = ["/api/a2a", "/api/a2a?via=koa"] as const;
const JSON_HEADERS = { "Content-Type": "application/json" };
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/**
 * Sends a request's head over a raw TLS socket, then `body` chunked (Transfer-Encoding) when given, else nothing of
 * the Content-Length it announces; resolves with the response text received, or "" when none came within `waitMs`.
 */
function rawRequest(
  t: TestServer,
  path: string,
  headers: Record<string, string>,
  o: { chunked?: Buffer; waitMs?: number } = {},
): Promise<string> {
  const url = new URL(t.url);
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: t.ca, servername: "localhost" });
    let response = "";
    const done = () => {
      socket.destroy();
      resolve(response);
    };
    const timer = setTimeout(done, o.waitMs ?? 3_000);
    socket.on("secureConnect", () => {
      const all = { ...headers, Host: "localhost", ...(o.chunked ? { "Transfer-Encoding": "chunked" } : {}) };
      const head = Object.entries(all).map(([k, v]) => `${k}: ${v}`);
      socket.write(`POST ${path} HTTP/1.1\r\n${head.join("\r\n")}\r\n\r\n`);
      if (o.chunked) {
        for (let at = 0; at < o.chunked.length; at += 16_384) {
          const piece = o.chunked.subarray(at, at + 16_384);
          socket.write(Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]));
        }
        socket.write("0\r\n\r\n");
      }
    });
    socket.on("data", (d: Buffer) => {
      response += d.toString("latin1");
      const headEnd = response.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: (\d+)/i.exec(response)?.[1];
      if (headEnd >= 0 && length !== undefined && response.length >= headEnd + 4 + Number(length)) {
        clearTimeout(timer);
        done();
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(response);
    });
  });
}

const statusOf = (raw: string) => raw.slice(0, raw.indexOf("\r\n"));
const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4));

describe("bodies without a valid key: 64 KiB at most", () => {
  let t: TestServer;
  let key: string;
  beforeAll(async () => {
    t = await startTestServer();
    const a = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 100_000 });
    key = a.apiKey;
    await gradedPractice(t.server.deps, a.accountId, NPI);
  });
  afterAll(async () => {
    await t?.close();
  });

  const justOver = `{"pad":"${"x".repeat(MAX_ANONYMOUS_REQUEST_BYTES)}"}`;

  it("an anonymous body announced past 64 KiB is 413 before it is read — REST, JSON-RPC on both paths", async () => {
    for (const path of ["/v1/a2a/keys", "/v1/a2a/network/register", ...RPC_PATHS]) {
      const raw = await rawRequest(t, path, { ...JSON_HEADERS, "Content-Length": String(10 * 1024 * 1024) });
      expect(statusOf(raw), path).toBe("HTTP/1.1 413 Payload Too Large");
      expect(bodyOf(raw).error, path).toMatchObject({
        code: "payload_too_large",
        details: { limit_bytes: MAX_ANONYMOUS_REQUEST_BYTES },
      });
    }
  });

  it("an anonymous chunked body past 64 KiB is 413 too; a refused key counts as none", async () => {
    for (const path of ["/v1/a2a/keys", ...RPC_PATHS]) {
      const raw = await rawRequest(t, path, JSON_HEADERS, { chunked: Buffer.from(justOver) });
      expect(statusOf(raw), path).toBe("HTTP/1.1 413 Payload Too Large");
    }
    const refusedKey = await t.request("/api/a2a", {
      headers: { ...JSON_HEADERS, "X-API-Key": "hcs_live_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB" },
      body: justOver,
    });
    expect([refusedKey.status, refusedKey.json.error.code]).toEqual([413, "payload_too_large"]);
  });

  it("with a valid key the same body is read (10 MiB limit), on REST and JSON-RPC", async () => {
    for (const path of RPC_PATHS) {
      const res = await t.request(path, { headers: { ...JSON_HEADERS, "X-API-Key": key }, body: justOver });
      expect(res.status, path).toBe(200);
      expect(res.json.error.code, path).toBe(-32600); // read and parsed: not a JSON-RPC request
    }
    const rest = await t.request("/v1/a2a/batch", { headers: { ...JSON_HEADERS, "X-API-Key": key }, body: justOver });
    expect([rest.status, rest.json.error.code]).toEqual([400, "invalid_body"]);
  });

  it("credentials of their own keep working: deploy-token registration, and signed uploads past 64 KiB", async () => {
    const practice = await enrolledPracticeFor(t, key, NPI, 1);
    const agent = await practice.enrol("frontdesk-01"); // anonymous: the deploy token is in the body
    const doc = scanDocumentAbout(agent.agentId, [{ host: null, count: 200 }], { pad: 400 });
    expect(Buffer.byteLength(JSON.stringify(doc))).toBeGreaterThan(MAX_ANONYMOUS_REQUEST_BYTES);
    const res = await practice.upload(agent, doc);
    expect(res.status, res.text).toBe(201);
  });
});

describe(`JSON nested more than ${MAX_JSON_DEPTH} levels is refused unparsed`, () => {
  let t: TestServer;
  let key: string;
  beforeAll(async () => {
    t = await startTestServer();
    key = (await accountWithKey(t.server.deps, { tier: "bulk", credits: 100_000 })).apiKey;
  });
  afterAll(async () => {
    await t?.close();
  });
  const headers = () => ({ ...JSON_HEADERS, "X-API-Key": key });

  it("REST: 400 invalid_json with details.max_depth; 64 levels are parsed and judged by the schema", async () => {
    const deep = await t.request("/v1/a2a/batch", { headers: headers(), body: nested(MAX_JSON_DEPTH + 1) });
    expect(deep.status).toBe(400);
    expect(deep.json.error).toMatchObject({ code: "invalid_json", details: { max_depth: MAX_JSON_DEPTH } });
    const deepest = await t.request("/v1/a2a/batch", { headers: headers(), body: nested(MAX_JSON_DEPTH) });
    expect([deepest.status, deepest.json.error.code]).toEqual([400, "invalid_body"]);
  });

  it("JSON-RPC, both paths, with or without a key: a parse error (-32700) naming invalid_json and the depth", async () => {
    for (const path of RPC_PATHS) {
      for (const h of [headers(), JSON_HEADERS]) {
        const res = await t.request(path, { headers: h, body: `{"jsonrpc":"2.0","id":1,"params":${nested(65)}}` });
        expect(res.status, path).toBe(200);
        expect(res.json).toMatchObject({
          id: null,
          error: { code: -32700, data: { code: "invalid_json", http_status: 400, details: { max_depth: 64 } } },
        });
        expect(res.headers["x-ratelimit-limit"], path).toBeDefined();
      }
      // 10 MiB of brackets from a key: refused at the 65th byte, not parsed.
      const flood = await t.request(path, { headers: headers(), body: "[".repeat(10 * 1024 * 1024 - 1) });
      expect(flood.json.error).toMatchObject({ code: -32700, data: { code: "invalid_json" } });
    }
  });

  it("MCP: 400 invalid_json, counted", async () => {
    const res = await t.request("/mcp", {
      headers: { ...headers(), Accept: "application/json, text/event-stream" },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${nested(100)}}`,
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "invalid_json", details: { max_depth: MAX_JSON_DEPTH } });
    expect(res.headers["x-ratelimit-remaining"]).toBeDefined();
  });
});

describe("a caller past its limit on POST /api/a2a is refused before its body is read", () => {
  // A fixed clock: every request of a test falls in one rate-limit window.
  const NOW = new Date("2026-11-22T12:00:10.000Z");
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ now: () => NOW });
  });
  afterAll(async () => {
    await t?.close();
  });
  const call = '{"jsonrpc":"2.0","id":1,"method":"hipaa.reputation"}';

  it("anonymous (per address) and with a key: 429 with Retry-After while the announced body never comes", async () => {
    const standard = await accountWithKey(t.server.deps);
    const auths: Record<string, string>[] = [{}, { "X-API-Key": standard.apiKey }];
    for (const auth of auths) {
      const spent = await Promise.all(
        Array.from({ length: 60 }, () => t.request("/api/a2a", { headers: { ...JSON_HEADERS, ...auth }, body: call })),
      );
      expect(spent.map((r) => r.status)).toEqual(Array(60).fill(200));
      for (const path of RPC_PATHS) {
        // The head of a request whose 100-byte body is never sent: answered all the same.
        const raw = await rawRequest(t, path, { ...JSON_HEADERS, ...auth, "Content-Length": "100" });
        expect(statusOf(raw), `${path} ${Object.keys(auth)}`).toBe("HTTP/1.1 429 Too Many Requests");
        expect(raw).toMatch(/\r\nretry-after: 50\r\n/i);
        expect(raw).toMatch(/\r\nx-ratelimit-remaining: 0\r\n/i);
        expect(bodyOf(raw).error).toMatchObject({
          code: "rate_limited",
          details: { limit: 60, retry_after_seconds: 50 },
        });
        // A 10 MiB body announced past the limit is not read either; the connection is closed after the answer.
        const big = await rawRequest(t, path, { ...JSON_HEADERS, ...auth, "Content-Length": String(10 * 1024 * 1024) });
        expect(statusOf(big)).toBe("HTTP/1.1 429 Too Many Requests");
        expect(big).toMatch(/\r\nconnection: close\r\n/i);
      }
    }
  });
});
