import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequestTo } from "../../lab/https-client.js";
import { createSecretBox, loadMasterKey } from "../../secrets/master-key.js";
import type { ServiceDeps } from "../../services/deps.js";
import { openStore, type Store } from "../../store/store.js";
import { expectBalanceSpentOn } from "../../test-support/credit-expectations.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { createTestSchema, shouldRunPostgres, urlWithSchema } from "../../test-support/postgres.js";
import { type ServerProcess, startServerProcess } from "../../test-support/server-process.js";

const runPg = await shouldRunPostgres();

interface Proc {
  proc: ServerProcess;
  url: string;
}

/** Starts `hcs-server serve` as its own process and waits for its "listening on" line. */
async function serve(env: Record<string, string>): Promise<Proc> {
  const { proc, match } = await startServerProcess(["serve"], env, /listening on (https:\/\/\S+)/, 30_000);
  return { proc, url: match[1]! };
}

describe.skipIf(!runPg)("two server processes sharing one PostgreSQL", () => {
  let procs: Proc[] = [];
  let dataDir: string;
  let drop: () => Promise<void>;
  let store: Store;
  let deps: ServiceDeps;
  let ca: string;

  beforeAll(async () => {
    const schema = await createTestSchema();
    drop = schema.drop;
    dataDir = mkdtempSync(join(tmpdir(), "hcs-mp-"));
    const env = {
      HCS_DATA_DIR: dataDir,
      HCS_PORT: "0",
      HCS_LOG_LEVEL: "warn",
      DATABASE_URL: urlWithSchema(schema),
    };
    // The first process migrates and creates the CA; the second shares both (same data dir, same database).
    procs.push(await serve(env));
    procs.push(await serve(env));
    store = openStore({ engine: "postgres", url: schema.url, schema: schema.schema });
    deps = { store, now: () => new Date(), secrets: createSecretBox(loadMasterKey(dataDir, null)) };
    const { readFileSync } = await import("node:fs");
    ca = readFileSync(join(dataDir, "tls", "ca.crt"), "utf8");
  }, 90_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.proc.stop()));
    procs = [];
    await store?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("100 concurrent lookups split across both processes: exactly 20 succeed on 500 credits", async () => {
    const a = await accountWithKey(deps, { credits: 500, tier: "bulk" });
    await gradedPractice(deps, a.accountId, "1234567893");
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        httpRequestTo(`${procs[i % 2]!.url}/v1/a2a/grade/1234567893`, { ca, headers: { "X-API-Key": a.apiKey } }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 402)).toHaveLength(80);
    await expectBalanceSpentOn(store.db, a.accountId, "grade", 20);
  });

  it("100 concurrent JSON-RPC calls split across both processes: exactly 20 succeed on 500 credits", async () => {
    const a = await accountWithKey(deps, { credits: 500, tier: "bulk" });
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        httpRequestTo(`${procs[i % 2]!.url}/api/a2a`, {
          ca,
          headers: { "X-API-Key": a.apiKey },
          body: { jsonrpc: "2.0", id: i, method: "hipaa.grade", params: { npi: "1234567893" } },
        }),
      ),
    );
    expect(responses.filter((r) => r.json.result)).toHaveLength(20);
    expect(responses.filter((r) => r.json.error?.data?.code === "insufficient_credits")).toHaveLength(80);
    const account = await store.db
      .selectFrom("accounts")
      .select("credits")
      .where("id", "=", a.accountId)
      .executeTakeFirstOrThrow();
    expect(account.credits).toBe(0);
  });

  it("rate-limit counters are shared: a standard key gets 60 per minute across both processes together", async () => {
    const a = await accountWithKey(deps, { credits: 0 });
    // Start right after a minute boundary so all 70 requests fall in one fixed window.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
    const responses = await Promise.all(
      Array.from({ length: 70 }, (_, i) =>
        httpRequestTo(`${procs[i % 2]!.url}/v1/a2a/grade/1234567893`, { ca, headers: { "X-API-Key": a.apiKey } }),
      ),
    );
    expect(responses.filter((r) => r.status === 429)).toHaveLength(10);
    expect(responses.filter((r) => r.status === 402)).toHaveLength(60);
    for (const r of responses) expect(r.headers["x-ratelimit-limit"]).toBe("60");
  }, 90_000);
});
