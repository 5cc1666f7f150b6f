import { randomBytes } from "node:crypto";
import { createSocket } from "node:dgram";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequestTo, type TestResponse } from "../lab/https-client.js";
import { createSecretBox, loadMasterKey } from "../secrets/master-key.js";
import { issueApiKey } from "../services/api-keys.js";
import { openStore, type Store } from "../store/store.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { ledgerAgreement } from "../test-support/ledger-agreement.js";
import {
  createTestSchema,
  shouldRunPostgres,
  TEST_PG_URL,
  type TestSchema,
  urlWithSchema,
} from "../test-support/postgres.js";
import { type ServerProcess, startServerProcess } from "../test-support/server-process.js";

const runPg = await shouldRunPostgres();
const NPI = "1234567893";

/**
 * Failovers, restarts, idle_session_timeout and pgbouncer recycling all look the same to a client: the backend
 * behind a pooled connection goes away. Here the test terminates every backend of the two processes (found by
 * their application_name) again and again while requests and jobs run.
 */
describe.runIf(runPg)("PostgreSQL backends terminated under load", () => {
  const appName = `hcs_e2e_${randomBytes(4).toString("hex")}`;
  let schema: TestSchema;
  let dataDir: string;
  let serve: ServerProcess;
  let worker: ServerProcess;
  let url: string;
  let ca: string;
  let store: Store;
  let admin: pg.Client;
  const silentDns = createSocket("udp4");

  beforeAll(async () => {
    schema = await createTestSchema();
    dataDir = mkdtempSync(join(tmpdir(), "hcs-pgdrop-"));
    // A DNS server on loopback that never answers: the practice's scan fails (unreachable) without leaving 127/8.
    await new Promise<void>((r) => silentDns.bind(0, "127.0.0.1", r));
    const databaseUrl = new URL(urlWithSchema(schema));
    databaseUrl.searchParams.set("application_name", appName);
    const env = {
      HCS_DATA_DIR: dataDir,
      HCS_PORT: "0",
      HCS_LOG_LEVEL: "warn",
      DATABASE_URL: databaseUrl.toString(),
      HCS_DNS_SERVERS: `127.0.0.1:${silentDns.address().port}`,
      HCS_JOB_LEASE_MS: "2000",
    };
    const started = await startServerProcess(["serve"], env, /listening on (https:\/\/\S+)/);
    serve = started.proc;
    url = started.match[1]!;
    worker = (await startServerProcess(["worker"], env, /HCS worker \S+ running/)).proc;
    ca = readFileSync(join(dataDir, "tls", "ca.crt"), "utf8");
    store = openStore({ engine: "postgres", url: schema.url, schema: schema.schema });
    admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
  }, 90_000);

  afterAll(async () => {
    await Promise.all([serve?.stop(), worker?.stop()]);
    await admin?.end();
    await store?.close();
    await schema?.drop();
    silentDns.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const terminateBackends = async () =>
    (
      await admin.query(
        "select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()",
        [appName],
      )
    ).rowCount ?? 0;

  it("both processes keep serving and working, and nothing acknowledged is lost", async () => {
    const deps = { store, now: () => new Date(), secrets: createSecretBox(loadMasterKey(dataDir, null)) };
    const account = await accountWithKey(deps, { credits: 100_000, tier: "bulk", plan: "professional" });
    await gradedPractice(deps, account.accountId, NPI);
    // A second key of the account for the checks after the load (the load may use up the first key's minute).
    const checkKey = (await issueApiKey(deps, { accountId: account.accountId })).apiKey;
    const call = (path: string, body?: unknown, key = account.apiKey): Promise<TestResponse> =>
      httpRequestTo(`${url}${path}`, { ca, headers: { "X-API-Key": key }, ...(body ? { body } : {}) });

    const jobs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call("/v1/a2a/scans/dispatch", { npi: NPI });
      expect(res.status, res.text).toBe(202);
      jobs.push(res.json.job_id);
    }

    const responses: TestResponse[] = [];
    let loading = true;
    const loops = Array.from({ length: 6 }, async () => {
      while (loading) responses.push(await call(`/v1/a2a/grade/${NPI}`));
    });
    const terminated: number[] = [];
    for (let round = 0; round < 4; round++) {
      await new Promise((r) => setTimeout(r, 700));
      terminated.push(await terminateBackends());
    }
    await new Promise((r) => setTimeout(r, 700));
    loading = false;
    await Promise.all(loops);

    // The test really cut connections, and neither process died of it.
    expect(
      terminated.every((n) => n > 0),
      `backends terminated per round: ${terminated}`,
    ).toBe(true);
    expect(serve.alive(), serve.output().stderr).toBe(true);
    expect(
      worker.alive(),
      JSON.stringify({ ...worker.output(), code: worker.child.exitCode, signal: worker.child.signalCode }),
    ).toBe(true);
    // 200, or 503 for calls on a connection that was cut (retryable, nothing committed), or 429 once the bulk
    // key's 600 a minute are used up — never a 500, never an unanswered request.
    const statuses = responses.map((r) => r.status);
    const unexpected = responses.filter((r) => ![200, 429, 503].includes(r.status));
    expect(unexpected.map((r) => r.text).slice(0, 3)).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(20);

    // Still serving after the last cut.
    const after = await call(`/v1/a2a/grade/${NPI}`, undefined, checkKey);
    expect(after.status).toBe(200);
    responses.push(after);

    // Every acknowledged lookup was charged once and audited once; nothing refused was charged.
    const ok = responses.filter((r) => r.status === 200).map((r) => r.headers["x-request-id"] as string);
    // Balance and ledger from one snapshot: the worker may be refunding the failing scans meanwhile, and a refund
    // committed between two separate reads showed as a balance one scan above its ledger (ledger-agreement.ts).
    const [credits] = await ledgerAgreement(store, [account.accountId]);
    const gradeCharges = credits!.rows.filter((l) => l.operation === "grade").map((l) => l.reference);
    expect(new Set(gradeCharges)).toEqual(new Set(ok));
    expect(gradeCharges).toHaveLength(ok.length);
    const audited = await store.db
      .selectFrom("audit_events")
      .select("request_id")
      .where("request_id", "in", ok)
      .execute();
    expect(audited).toHaveLength(ok.length);
    expect(credits!.balance).toBe(credits!.ledger);

    // The jobs dispatched before the cuts end (the practice is unreachable: failed and refunded), each once.
    const deadline = Date.now() + 45_000;
    let states: string[] = [];
    while (Date.now() < deadline) {
      states = await Promise.all(
        jobs.map(async (id) => (await call(`/v1/a2a/jobs/${id}`, undefined, checkKey)).json.status as string),
      );
      if (states.every((s) => s === "completed" || s === "failed")) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(
      states.every((s) => s === "completed" || s === "failed"),
      String(states),
    ).toBe(true);
    const refunds = await store.db
      .selectFrom("credit_ledger")
      .select("reference")
      .where("account_id", "=", account.accountId)
      .where("operation", "=", "refund")
      .execute();
    expect(refunds).toHaveLength(states.filter((s) => s === "failed").length);
    const [settled] = await ledgerAgreement(store, [account.accountId]);
    expect(settled!.balance).toBe(settled!.ledger);
    expect(serve.alive() && worker.alive()).toBe(true);
  }, 120_000);
});
