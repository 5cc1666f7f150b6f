import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAccount } from "../services/accounts.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { createTestSchema, shouldRunPostgres, TEST_PG_URL, type TestSchema } from "../test-support/postgres.js";
import { startTcpProxy, type TcpProxy } from "../test-support/tcp-proxy.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

const runPg = await shouldRunPostgres();
const NPI = "1234567893";

// The server reaches PostgreSQL through a proxy the test can blackhole: every byte held, new connections left
// unanswered — a partition or a frozen database host.
let proxy: TcpProxy;
let t: TestServer;
let key: string;
let accountId: string;
let schema: TestSchema;

beforeAll(async () => {
  if (!runPg) return;
  const target = new URL(TEST_PG_URL);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  schema = await createTestSchema();
  const url = new URL(schema.url);
  url.host = `127.0.0.1:${proxy.port}`;
  url.searchParams.set("options", `-c search_path=${schema.schema}`);
  t = await startTestServer({
    env: { DATABASE_URL: url.toString(), HCS_DB_CONNECT_TIMEOUT_MS: "1000", HCS_DB_STATEMENT_TIMEOUT_MS: "1000" },
  });
  const a = await accountWithKey(t.server.deps, { credits: 1000, tier: "bulk" });
  key = a.apiKey;
  accountId = a.accountId;
  await gradedPractice(t.server.deps, a.accountId, NPI);
}, 60_000);

afterAll(async () => {
  if (!runPg) return;
  proxy.restore();
  await t?.close();
  await proxy.close();
  await schema.drop();
});

const timed = async <T>(work: Promise<T>) => {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
};

describe.runIf(runPg)("PostgreSQL that stops answering", () => {
  it("healthz, readyz and metrics answer promptly; API calls get 503 unavailable promptly; all recover", async () => {
    expect((await t.request(`/v1/a2a/grade/${NPI}`, { headers: { "X-API-Key": key } })).status).toBe(200);
    proxy.blackhole();
    try {
      const [health, ready, metrics, grade, dispatch] = await Promise.all([
        timed(t.request("/healthz")),
        timed(t.request("/readyz")),
        timed(t.request("/metrics")),
        timed(t.request(`/v1/a2a/grade/${NPI}`, { headers: { "X-API-Key": key } })),
        timed(t.request("/v1/a2a/scans/dispatch", { headers: { "X-API-Key": key }, body: { npi: NPI } })),
      ]);
      expect(health.value.status).toBe(200);
      expect(health.ms).toBeLessThan(500);
      expect(ready.value.status).toBe(503);
      expect(ready.value.json.error.code).toBe("unavailable");
      expect(ready.ms).toBeLessThan(2_000);
      expect(metrics.value.status).toBe(200);
      expect(metrics.value.text).toContain("hcs_db_pool_connections");
      expect(metrics.ms).toBeLessThan(500);
      for (const call of [grade, dispatch]) {
        expect(call.value.status).toBe(503);
        expect(call.value.json.error.code).toBe("unavailable");
        expect(call.value.headers["retry-after"]).toBe("2");
        // statement timeout 1 s (+1 s client margin), connect timeout 1 s: never the 15 s+ hang of before.
        expect(call.ms).toBeLessThan(5_000);
      }
      // Another readiness probe while the first query is still stuck is answered within the second too.
      const again = await timed(t.request("/readyz"));
      expect(again.value.status).toBe(503);
      expect(again.ms).toBeLessThan(2_000);
    } finally {
      proxy.restore();
    }
    // Recovery without a restart: connections that were stuck are replaced.
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await t.request(`/v1/a2a/grade/${NPI}`, { headers: { "X-API-Key": key } })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    expect((await t.request("/readyz")).status).toBe(200);
  }, 30_000);

  it("a request whose audit write cannot commit fails with 503 promptly and is not charged", async () => {
    const balance = async () => (await getAccount(t.server.deps, accountId)).credits;
    const before = await balance();
    // Another session holds an exclusive lock on the audit table: every insert into it waits.
    const locker = new pg.Client({ connectionString: schema.url });
    await locker.connect();
    try {
      await locker.query("begin");
      await locker.query(`lock table ${schema.schema}.audit_events in access exclusive mode`);
      const call = await timed(t.request(`/v1/a2a/grade/${NPI}`, { headers: { "X-API-Key": key } }));
      expect(call.value.status).toBe(503);
      expect(call.value.json.error.code).toBe("unavailable");
      expect(call.value.headers["x-credits-charged"]).toBeUndefined();
      expect(call.ms).toBeLessThan(4_000);
    } finally {
      await locker.query("rollback");
      await locker.end();
    }
    // The charge was in the transaction that could not commit: nothing was taken.
    expect(await balance()).toBe(before);
    const ok = await t.request(`/v1/a2a/grade/${NPI}`, { headers: { "X-API-Key": key } });
    expect(ok.status).toBe(200);
    expect(await balance()).toBe(before - 25);
  }, 30_000);
});
