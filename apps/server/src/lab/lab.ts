import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { Logger } from "pino";
import { loadConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { type SamplePractices, samplePracticesEnv, startSamplePractices } from "../sample-practices/index.js";
import { type RunningServer, startServer } from "../server.js";
import { createAccount } from "../services/accounts.js";
import { issueApiKey } from "../services/api-keys.js";
import { addPractice } from "../services/practices.js";
import { httpRequestTo, type TestResponse } from "./https-client.js";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.js";

/**
 * A self-contained HCS lab on loopback: the sample practices (DNS zone server, HTTPS sites on their own loopback
 * addresses), a webhook receiver, and a real server (with its worker) configured to scan them. Used by
 * `npm run demo` and the benchmarks. Nothing here reaches beyond 127.0.0.0/8.
 */
export interface Lab {
  readonly server: RunningServer;
  readonly samples: SamplePractices;
  readonly receiver: WebhookReceiver;
  /** API key of the lab's account (Professional plan, bulk tier), which owns every sample practice. */
  readonly apiKey: string;
  readonly accountId: string;
  readonly dataDir: string;
  /**
   * A request to the lab's server as the lab's account (X-API-Key), TLS verified against the server's CA: GET, or
   * POST with `body` as JSON when one is given.
   */
  request(path: string, body?: unknown): Promise<TestResponse>;
  stop(): Promise<void>;
}

export interface LabOptions {
  /** First three octets of the sample practices' loopback addresses. */
  readonly loopbackPrefix?: string;
  readonly credits?: number;
  readonly workerConcurrency?: number;
  /** Where server logs go (default: dropped; the lab's user reads its own output). */
  readonly logger?: Logger;
  /**
   * The server's data directory, owned by the caller (it must exist and is left in place by stop(): the demo keeps its
   * log there). Default: a temporary directory the lab removes when it stops.
   */
  readonly dataDir?: string;
}

export async function startLab(options: LabOptions = {}): Promise<Lab> {
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "hcs-lab-"));
  const samples = await startSamplePractices({ loopbackPrefix: options.loopbackPrefix ?? "127.0.10" });
  const receiver = await startWebhookReceiver();
  const config = loadConfig(
    {
      HCS_DATA_DIR: dataDir,
      HCS_PORT: "0",
      HCS_LOG_LEVEL: "warn",
      ...samplePracticesEnv(samples, dataDir, receiver.caPem),
      HCS_WEBHOOK_RETRY_BASE_MS: "500",
      HCS_WORKER_CONCURRENCY: String(options.workerConcurrency ?? 8),
    },
    process.cwd(),
  );
  const quiet = createLogger("warn", new Writable({ write: (_c, _e, cb) => cb() }));
  const server = await startServer(config, options.logger ?? quiet, { worker: true });
  const deps = server.deps;
  const { account, webhookSecret } = await createAccount(deps, {
    name: "Demo Health Group",
    plan: "professional",
    tier: "bulk",
    credits: options.credits ?? 100_000,
  });
  receiver.setSecret(webhookSecret);
  const key = await issueApiKey(deps, { accountId: account.id, label: "lab" });
  for (const p of samples.practices)
    await addPractice(deps, { npi: p.npi, name: p.name, domain: p.domain, website: p.website, accountId: account.id });
  return {
    server,
    samples,
    receiver,
    apiKey: key.apiKey,
    accountId: account.id,
    dataDir,
    request: (path, body) =>
      httpRequestTo(`${server.url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        ca: server.tls.caPem,
        headers: { "X-API-Key": key.apiKey },
        ...(body === undefined ? {} : { body }),
      }),
    async stop() {
      await server.close();
      await Promise.all([samples.stop(), receiver.close()]);
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
