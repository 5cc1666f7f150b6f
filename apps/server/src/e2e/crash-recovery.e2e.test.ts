import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequestTo } from "../lab/https-client.js";
import { startWebhookReceiver, type WebhookReceiver } from "../lab/webhook-receiver.js";
import { type SamplePractices, samplePracticesEnv, startSamplePractices } from "../sample-practices/index.js";
import { HCS_BIN } from "../test-support/hcs-bin.js";
import { serverProcessEnv } from "../test-support/server-env.js";
import { startServerProcess } from "../test-support/server-process.js";

const JOBS = 24;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

let samples: SamplePractices;
let receiver: WebhookReceiver;
let dataDir: string;
let env: Record<string, string>;
let child: ChildProcess | null = null;
let url = "";

/** Starts `hcs-server serve`; on the first start, waits for the whole banner (it carries the operator key). */
async function serve(firstStart: boolean): Promise<string> {
  const { proc } = await startServerProcess(["serve"], env, firstStart ? /More: docs\/operations\.md/ : /listening on/);
  child = proc.child;
  const { stdout, stderr } = proc.output();
  return `${stdout}\n${stderr}`;
}

beforeAll(async () => {
  samples = await startSamplePractices({ loopbackPrefix: "127.0.22" });
  receiver = await startWebhookReceiver();
  dataDir = mkdtempSync(join(tmpdir(), "hcs-crash-"));
  const port = await freePort();
  env = {
    HCS_DATA_DIR: dataDir,
    HCS_PORT: String(port),
    HCS_LOG_LEVEL: "warn",
    ...samplePracticesEnv(samples, dataDir, receiver.caPem),
    HCS_JOB_LEASE_MS: "1500",
    HCS_WORKER_CONCURRENCY: "2",
    HCS_WEBHOOK_RETRY_BASE_MS: "300",
  };
  url = `https://127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  child?.kill("SIGKILL");
  await samples?.stop();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a server killed with SIGKILL while jobs run", () => {
  it("completes every accepted job exactly once after restart", async () => {
    const banner = await serve(true);
    const operatorKey = /(hcs_live_[0-9A-Za-z_]+)/.exec(banner)![1]!;
    const accountId = /operator account (acct_[0-9A-Za-z]+)/.exec(banner)![1]!;
    const ca = readFileSync(join(dataDir, "tls", "ca.crt"), "utf8");
    const { execFileSync } = await import("node:child_process");
    for (const p of samples.practices) {
      execFileSync(
        process.execPath,
        [
          ...HCS_BIN.nodeArgs,
          "practices",
          "add",
          "--npi",
          p.npi,
          "--name",
          p.name,
          "--domain",
          p.domain,
          "--website",
          p.website,
          "--account",
          accountId,
        ],
        {
          env: serverProcessEnv(env),
        },
      );
    }
    const secret = JSON.parse(
      execFileSync(process.execPath, [...HCS_BIN.nodeArgs, "--json", "accounts", "webhook-secret", accountId], {
        env: serverProcessEnv(env),
        encoding: "utf8",
      }),
    ).webhook_secret;
    receiver.setSecret(secret);

    const db = new SQLite(join(dataDir, "hcs.sqlite"), { readonly: true });
    const statuses = () =>
      Object.fromEntries(
        (
          db.prepare("select status, count(*) n from jobs group by status").all() as { status: string; n: number }[]
        ).map((r) => [r.status, r.n]),
      );
    const dispatched: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const p = samples.practices[i % samples.practices.length]!;
      const res = await httpRequestTo(`${url}/v1/a2a/scans/dispatch`, {
        ca,
        method: "POST",
        headers: { "X-API-Key": operatorKey },
        body: { npi: p.npi, callback_url: receiver.url },
      });
      expect(res.status, res.text).toBe(202);
      dispatched.push(res.json.job_id);
    }
    // Kill the moment a job is mid-flight, with work both done and still waiting.
    const deadline = Date.now() + 30_000;
    let atKill: Record<string, number> = {};
    for (;;) {
      atKill = statuses();
      if ((atKill.running ?? 0) > 0 && (atKill.accepted ?? 0) > 0) break;
      if (Date.now() > deadline)
        throw new Error(`never saw running and accepted jobs together: ${JSON.stringify(atKill)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    child!.kill("SIGKILL");
    await new Promise((r) => child!.once("exit", r));
    const afterKill = statuses();
    expect(afterKill.running ?? 0).toBeGreaterThan(0);

    await serve(false);
    const end = Date.now() + 60_000;
    while (statuses().completed !== JOBS && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(statuses()).toEqual({ completed: JOBS });

    // Exactly once: one grade per job, one charge and no refund per job, one webhook delivery per job.
    const jobs = db.prepare("select id, attempts from jobs").all() as { id: string; attempts: number }[];
    expect(jobs.map((j) => j.id).sort()).toEqual([...dispatched].sort());
    expect(jobs.some((j) => j.attempts > 1)).toBe(true);
    const grades = (db.prepare("select count(*) n from grades").get() as { n: number }).n;
    expect(grades).toBe(JOBS);
    const ledger = db
      .prepare("select operation, count(*) n from credit_ledger where reference like 'job:%' group by operation")
      .all();
    expect(ledger).toEqual([{ operation: "full_scan", n: JOBS }]);
    const deliveries = db.prepare("select job_id from webhook_deliveries").all() as { job_id: string }[];
    expect(deliveries).toHaveLength(JOBS);
    expect(new Set(deliveries.map((d) => d.job_id)).size).toBe(JOBS);
    // A delivery the killed process had claimed is sent again once its 20 s lease lapses (at least once).
    const landing = Date.now() + 45_000;
    while (new Set(receiver.received.map((r) => JSON.parse(r.body).job_id)).size < JOBS && Date.now() < landing)
      await new Promise((r) => setTimeout(r, 100));
    expect(new Set(receiver.received.map((r) => JSON.parse(r.body).job_id)).size).toBe(JOBS);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    db.close();
  }, 180_000);
});
