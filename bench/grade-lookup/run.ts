// bench/grade-lookup: GET /v1/a2a/grade/{npi} through the full pipeline (TLS, auth, rate limit, credits, audit,
// SQLite store) versus a bare Koa HTTPS handler returning the same JSON, measured in the same run with autocannon;
// then the same lookup as a JSON-RPC call (POST /api/a2a, hipaa.grade) against the REST row, and a 50-entry JSON-RPC
// batch against 50 single calls (entries per second). Many keys share the load so the rate limit never binds but is
// evaluated on every call.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createSecretBox, loadMasterKey } from "../../apps/server/src/secrets/master-key.js";
import { issueApiKey } from "../../apps/server/src/services/api-keys.js";
import { openStore } from "../../apps/server/src/store/store.js";
import { accountWithKey, gradedPractice } from "../../apps/server/src/test-support/fixtures.js";
import { cpuSecondsOf, rssOf, spawnNode } from "../lib/process.js";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 32;
// Enough keys that no key reaches its 600 calls a minute, batches included (each entry counts).
const KEYS = 2000;
const BATCH = 50;
const NPI = "1234567893";
const root = join(import.meta.dirname, "..", "..");

interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  rss: { rssMiB: number; peakMiB: number };
  /** Cores used on average during the run: load generator (this process) and server. */
  loadgenCpu: number;
  serverCpu: number;
}

interface Request {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly body?: string;
}

async function load(
  name: string,
  url: string,
  ca: string,
  pid: number,
  keys: string[] | null,
  request: Request,
): Promise<Result> {
  let i = 0;
  const run = (duration: number) =>
    autocannon({
      url,
      connections: CONNECTIONS,
      duration,
      tlsOptions: { ca },
      requests: [
        {
          method: request.method,
          path: request.path,
          ...(request.body ? { body: request.body } : {}),
          setupRequest: (req: { headers?: Record<string, string> }) => {
            req.headers = {
              ...req.headers,
              ...(request.body ? { "content-type": "application/json" } : {}),
              ...(keys ? { "x-api-key": keys[i++ % keys.length]! } : {}),
            };
            return req;
          },
        },
      ],
    });
  await run(2); // warm-up: JIT, connection setup, SQLite page cache
  const cpu0 = process.cpuUsage();
  const server0 = cpuSecondsOf(pid);
  const r = await run(DURATION_S);
  const cpu = process.cpuUsage(cpu0);
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    rss: rssOf(pid),
    loadgenCpu: (cpu.user + cpu.system) / 1e6 / DURATION_S,
    serverCpu: (cpuSecondsOf(pid) - server0) / DURATION_S,
  };
}

const rpcCall = (id: number) => ({ jsonrpc: "2.0", id, method: "hipaa.grade", params: { npi: NPI } });

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "hcs-bench-grade-"));
  try {
    // Prepare the store the server will open: one practice with a grade, one account, many keys.
    const store = openStore({ engine: "sqlite", file: join(dataDir, "hcs.sqlite") });
    await store.migrate();
    const deps = { store, now: () => new Date(), secrets: createSecretBox(loadMasterKey(dataDir, null)) };
    const { accountId, apiKey } = await accountWithKey(deps, {
      name: "Bench",
      plan: "enterprise",
      tier: "bulk",
      credits: 1_000_000_000,
    });
    const record = await gradedPractice(deps, accountId, NPI);
    const keys = [apiKey];
    while (keys.length < KEYS) keys.push((await issueApiKey(deps, { accountId })).apiKey);
    await store.close();

    const profile = process.env.BENCH_PROFILE_DIR
      ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [];
    const full = await spawnNode(
      // The built server, as deployments run it (npm run bench builds first).
      [...profile, join(root, "apps/server/dist/bin.js"), "serve"],
      { HCS_DATA_DIR: dataDir, HCS_PORT: "0", HCS_LOG_LEVEL: "warn" },
      /listening on (https:\/\/\S+)/,
    );
    const ca = readFileSync(join(dataDir, "tls", "ca.crt"), "utf8");
    const bodyFile = join(dataDir, "grade.json");
    writeFileSync(bodyFile, JSON.stringify(record));
    const bare = await spawnNode(
      [
        join(import.meta.dirname, "bare-server.ts"),
        join(dataDir, "tls", "server.crt"),
        join(dataDir, "tls", "server.key"),
        bodyFile,
      ],
      {},
      /bare listening on (https:\/\/\S+)/,
    );
    // The bare server presents only its leaf; clients trust the same CA.
    try {
      const get: Request = { method: "GET", path: `/v1/a2a/grade/${NPI}` };
      const baseline = await load("bare Koa HTTPS", bare.match[1]!, ca, bare.proc.child.pid!, null, get);
      const pipeline = await load("full pipeline (SQLite)", full.match[1]!, ca, full.proc.child.pid!, keys, get);
      const rpc = await load("JSON-RPC hipaa.grade", full.match[1]!, ca, full.proc.child.pid!, keys, {
        method: "POST",
        path: "/api/a2a",
        body: JSON.stringify(rpcCall(1)),
      });
      const batch = await load(`JSON-RPC batch of ${BATCH}`, full.match[1]!, ca, full.proc.child.pid!, keys, {
        method: "POST",
        path: "/api/a2a",
        body: JSON.stringify(Array.from({ length: BATCH }, (_, n) => rpcCall(n))),
      });
      const ratio = pipeline.rps / baseline.rps;
      console.log(
        `\nGET /v1/a2a/grade/{npi}, ${CONNECTIONS} connections, ${DURATION_S} s each, ${KEYS} keys, Node ${process.version}`,
      );
      console.log(
        "run                       req/s    p50 ms  p99 ms  errors  non-2xx  RSS MiB (peak)  CPU server/loadgen",
      );
      for (const r of [baseline, pipeline, rpc, batch]) {
        console.log(
          `${r.name.padEnd(24)} ${r.rps.toFixed(0).padStart(7)}  ${String(r.p50).padStart(6)}  ${String(r.p99).padStart(6)}  ${String(r.errors).padStart(6)}  ${String(r.non2xx).padStart(7)}  ${r.rss.rssMiB.toFixed(0)} (${r.rss.peakMiB.toFixed(0)})`.padEnd(
            83,
          ) + `  ${r.serverCpu.toFixed(2)} / ${r.loadgenCpu.toFixed(2)}`,
        );
      }
      console.log(
        `ratio full/bare throughput: ${ratio.toFixed(2)} (target >= 0.50); full p99 ${pipeline.p99} ms (target < 25); full RSS peak ${pipeline.rss.peakMiB.toFixed(0)} MiB (target < 200)`,
      );
      console.log(
        `ratio JSON-RPC/REST lookups: ${(rpc.rps / pipeline.rps).toFixed(2)} (target >= 0.90); ` +
          `batch of ${BATCH}: ${(batch.rps * BATCH).toFixed(0)} lookups/s, ${((batch.rps * BATCH) / rpc.rps).toFixed(1)}x single JSON-RPC calls (target >= 5)`,
      );
      for (const r of [pipeline, rpc, batch])
        if (r.non2xx > 0) console.log(`WARNING: ${r.non2xx} non-2xx responses in "${r.name}"`);
    } finally {
      await Promise.all([full.proc.stop(), bare.proc.stop()]);
    }
    // After the server stopped (requests in flight when the load ended are settled by then): every request that was
    // charged has its audit event, in the same transaction.
    const verify = openStore({ engine: "sqlite", file: join(dataDir, "hcs.sqlite") });
    const [orphans] = await verify.hot.all<{ n: number }>(
      verify.db,
      "select count(*) as n from credit_ledger l where l.operation = 'grade' and not exists (select 1 from audit_events a where a.request_id = l.reference)",
      [],
    );
    const [events] = await verify.hot.all<{ n: number }>(verify.db, "select count(*) as n from audit_events", []);
    console.log(
      `store after the run: ${events?.n} audit events; grade charges without their audit event: ${orphans?.n}`,
    );
    await verify.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
