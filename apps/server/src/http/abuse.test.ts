import { connect } from "node:tls";
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
  const a = await accountWithKey(t.server.deps, { credits: 5000, tier: "bulk" });
  key = a.apiKey;
  accountId = a.accountId;
  await gradedPractice(t.server.deps, a.accountId, NPI);
});
afterAll(async () => {
  await t.close();
});

const countRows = async (table: "audit_events" | "credit_ledger" | "policy_documents") =>
  Number(
    (
      await t.server.deps.store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const balance = async () => (await getAccount(t.server.deps, accountId)).credits;

/** Sends a chunked request body of `bytes` over a raw TLS socket and returns the raw response text. */
function sendChunked(path: string, headers: Record<string, string>, bytes: number): Promise<string> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: t.ca, servername: "localhost" });
    let response = "";
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (sent < bytes && !socket.destroyed) {
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        const ok = socket.write(
          Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), chunk.subarray(0, n), Buffer.from("\r\n")]),
        );
        if (!ok) return socket.once("drain", pump);
      }
      if (!socket.destroyed) socket.write("0\r\n\r\n");
    };
    socket.on("secureConnect", () => {
      const head = Object.entries({ ...headers, "Transfer-Encoding": "chunked", Host: "localhost" })
        .map(([k, v]) => `${k}: ${v}`)
        .join("\r\n");
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n`);
      pump();
    });
    socket.on("data", (d: Buffer) => {
      response += d.toString("latin1");
    });
    // The server closes the connection after its 413; writes still in flight may then fail: that is expected.
    socket.on("error", () => (response ? resolve(response) : reject(new Error("no response"))));
    socket.on("close", () => resolve(response));
    setTimeout(() => reject(new Error(`no response in time: ${response.slice(0, 200)}`)), 20_000).unref();
  });
}

describe("a chunked body past 10 MiB", () => {
  it("is answered 413 with the error body and rate-limit headers, and requests settled beside it are intact", async () => {
    const auditsBefore = await countRows("audit_events");
    const neighbours = Array.from({ length: 20 }, () =>
      t.request(`/v1/a2a/grade/${NPI}`, { headers: { "X-API-Key": key } }),
    );
    const raw = await sendChunked(
      "/v1/a2a/scans/dispatch",
      { "X-API-Key": key, "Content-Type": "application/json" },
      11 * 1024 * 1024,
    );
    const [statusLine, ...rest] = raw.split("\r\n");
    expect(statusLine).toBe("HTTP/1.1 413 Payload Too Large");
    const headerText = rest.slice(0, rest.indexOf("")).join("\n").toLowerCase();
    expect(headerText).toMatch(/^x-ratelimit-limit: 600$/m);
    expect(headerText).toMatch(/^x-ratelimit-remaining: \d+$/m);
    expect(headerText).toMatch(/^x-ratelimit-reset: \d+$/m);
    const body = JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4));
    expect(body.error).toMatchObject({ code: "payload_too_large", details: { limit_bytes: 10 * 1024 * 1024 } });
    expect((await Promise.all(neighbours)).map((r) => r.status)).toEqual(Array(20).fill(200));
    // The oversized request (authenticated) and each neighbour left exactly one audit event.
    expect((await countRows("audit_events")) - auditsBefore).toBe(21);
    const row = await t.server.deps.store.db
      .selectFrom("audit_trail")
      .selectAll()
      .where("status", "=", 413)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      client_ip: "127.0.0.1",
      action: "hipaa.scan",
      transport: "rest",
      code: "payload_too_large",
    });
  });

  it("an announced Content-Length past 10 MiB on Group B also carries the rate-limit headers", async () => {
    const res = await t
      .request("/v1/a2a/scans/dispatch", {
        headers: { "X-API-Key": key, "Content-Type": "application/json", "Content-Length": String(11 * 1024 * 1024) },
        body: "{}",
      })
      .catch((err: Error) => err);
    // The server answers before the (never sent) body; the client may see the answer or a reset.
    if (!(res instanceof Error)) {
      expect(res.status).toBe(413);
      expect(res.headers["x-ratelimit-limit"]).toBe("600");
    }
  });
});

describe("HEAD on an operation", () => {
  it("is refused 405 (Allow: GET) without running, counting, charging or writing anything", async () => {
    const rows = async () => ({
      credits: await balance(),
      ledger: await countRows("credit_ledger"),
      audit: await countRows("audit_events"),
      policies: await countRows("policy_documents"),
    });
    const before = await rows();
    // The hot route (ahead of Koa), a plain operation route, and one whose GET generates paid documents.
    for (const path of [
      `/v1/a2a/grade/${NPI}`,
      `/v1/a2a/grade/${NPI}?x=1`,
      `/v1/a2a/findings/${NPI}`,
      `/v1/a2a/policies/${NPI}?generate=1,2`,
    ]) {
      const head = await t.request(path, { method: "HEAD", headers: { "X-API-Key": key } });
      expect([path, head.status, head.headers.allow, head.text]).toEqual([path, 405, "GET", ""]);
      expect(head.headers["x-credits-charged"]).toBeUndefined();
    }
    expect(await rows()).toEqual(before);
    // GET still answers, and is charged.
    const get = await t.request(`/v1/a2a/grade/${NPI}`, { headers: { "X-API-Key": key } });
    expect(get.headers["x-credits-charged"]).toBe("25");
    expect(await balance()).toBe(before.credits - 25);
    expect(Number(get.headers["content-length"])).toBe(Buffer.byteLength(get.text));
    expect(get.headers["content-type"]).toBe("application/json; charset=utf-8");
  });
});

describe("what becomes an audit event", () => {
  it("anonymous refusals and public reads are counted in metrics, not written to the trail", async () => {
    const before = await countRows("audit_events");
    const anonymous = [
      t.request(`/v1/a2a/grade/${NPI}`),
      t.request(`/v1/a2a/grade/${NPI}`, {
        headers: { "X-API-Key": "hcs_live_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB" },
      }),
      t.request("/v1/a2a/no-such-thing"),
      t.request("/v1/practice", { headers: { Authorization: "Bearer nope" } }),
      t.request("/v1/a2a/keys", { method: "POST", body: { email: "bad" } }),
      t.request("/v1/a2a/network/register", { method: "POST", body: {} }),
      t.request("/.well-known/agent-card.json"),
      t.request("/healthz"),
      t.request("/readyz"),
    ];
    for (let round = 0; round < 20; round++) await Promise.all(anonymous.map((r) => r));
    await Promise.all(anonymous);
    for (let i = 0; i < 50; i++) await t.request(`/v1/a2a/grade/${NPI}`, { headers: { "X-API-Key": "garbage" } });
    expect(await countRows("audit_events")).toBe(before);
    const metrics = (await t.request("/metrics")).text;
    expect(metrics).toMatch(/hcs_anonymous_refusals_total\{code="invalid_credentials"\} (\d+)/);
    expect(
      Number(/hcs_anonymous_refusals_total\{code="invalid_credentials"\} (\d+)/.exec(metrics)![1]),
    ).toBeGreaterThanOrEqual(52);
    expect(metrics).toMatch(/hcs_anonymous_refusals_total\{code="missing_credentials"\} \d+/);
    expect(metrics).toMatch(/hcs_anonymous_refusals_total\{code="not_found"\} \d+/);
  });

  it("every authenticated call and every state change is audited", async () => {
    const before = await countRows("audit_events");
    await t.request(`/v1/a2a/grade/${NPI}`, { headers: { "X-API-Key": key } }); // success
    await t.request("/v1/a2a/grade/1234567890", { headers: { "X-API-Key": key } }); // authenticated 400
    await t.request("/v1/a2a/nothing", { headers: { "X-API-Key": key } }); // authenticated 404
    const issued = await t.request("/v1/a2a/keys", {
      method: "POST",
      body: { email: "audit@clinic.example", organization: "Audit" },
    }); // anonymous state change
    expect(issued.status).toBe(201);
    expect((await countRows("audit_events")) - before).toBe(4);
  });
});
