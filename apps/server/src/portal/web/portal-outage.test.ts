import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestResponse } from "../../lab/https-client.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { PortalClient } from "../../test-support/portal-client.js";
import { invitedAndSignedIn } from "../../test-support/portal-sign-in.js";
import { createTestSchema, shouldRunPostgres, TEST_PG_URL, type TestSchema } from "../../test-support/postgres.js";
import { startTcpProxy, type TcpProxy } from "../../test-support/tcp-proxy.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

/*
 * The portal when its database does not answer: a page saying so, 503 with Retry-After (as the API answers
 * `503 unavailable`), never the 500 "something went wrong" of a bug.
 */

const NPI = "1234567893";

function expectUnavailablePage(res: TestResponse): void {
  expect(res.status).toBe(503);
  expect(res.headers["retry-after"]).toBe("2");
  expect(res.headers["content-type"]).toContain("text/html");
  expect(res.text).toContain("Temporarily unavailable");
  expect(res.text).toContain("database is not answering");
  expect(res.text).not.toContain("Something went wrong");
}

describe("the portal with its SQLite database locked by another process", () => {
  let t: TestServer;
  let accountId: string;

  beforeAll(async () => {
    t = await startTestServer();
    accountId = (await accountWithKey(t.server.deps, { plan: "professional" })).accountId;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers a sign-in that must write (a failure to count) with the 503 page once the lock wait is over", async () => {
    await invitedAndSignedIn(t, accountId, "busy@clinic.example", "viewer");
    const browser = new PortalClient(t);
    await browser.get("/portal/sign-in");
    // An operator command in another process holds the write lock for longer than a write waits (5 s).
    const other = new SQLite(join(t.dataDir, "hcs.sqlite"));
    other.exec("begin immediate");
    try {
      const started = performance.now();
      const res = await browser.post("/portal/sign-in", { email: "busy@clinic.example", password: "a wrong guess" });
      expectUnavailablePage(res);
      expect(performance.now() - started).toBeLessThan(8_000);
    } finally {
      other.exec("rollback");
      other.close();
    }
  }, 20_000);
});

describe.skipIf(!(await shouldRunPostgres()))("the portal with its PostgreSQL database blackholed", () => {
  let proxy: TcpProxy;
  let t: TestServer;
  let schema: TestSchema;
  let signedIn: PortalClient;

  beforeAll(async () => {
    const target = new URL(TEST_PG_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    schema = await createTestSchema();
    const url = new URL(schema.url);
    url.host = `127.0.0.1:${proxy.port}`;
    url.searchParams.set("options", `-c search_path=${schema.schema}`);
    t = await startTestServer({
      env: { DATABASE_URL: url.toString(), HCS_DB_CONNECT_TIMEOUT_MS: "1000", HCS_DB_STATEMENT_TIMEOUT_MS: "1000" },
    });
    const { accountId } = await accountWithKey(t.server.deps, { plan: "professional" });
    await gradedPractice(t.server.deps, accountId, NPI);
    signedIn = (await invitedAndSignedIn(t, accountId, "outage@clinic.example", "viewer")).browser;
  }, 60_000);
  afterAll(async () => {
    proxy?.restore();
    await t?.close();
    await proxy?.close();
    await schema?.drop();
  });

  it("answers pages and sign-ins 503 with a page that says so, and recovers", async () => {
    expect((await signedIn.get(`/portal/practices/${NPI}`)).status).toBe(200);
    const stranger = new PortalClient(t);
    await stranger.get("/portal/sign-in");
    proxy.blackhole();
    try {
      const [page, signIn] = await Promise.all([
        signedIn.get(`/portal/practices/${NPI}`),
        stranger.post("/portal/sign-in", { email: "outage@clinic.example", password: "whatever it is" }),
      ]);
      expectUnavailablePage(page);
      expectUnavailablePage(signIn);
    } finally {
      proxy.restore();
    }
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await signedIn.get(`/portal/practices/${NPI}`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
  }, 30_000);
});
