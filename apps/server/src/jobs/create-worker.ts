import { readFileSync } from "node:fs";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { SecretBox } from "../secrets/master-key.js";
import type { Store } from "../store/store.js";
import { splitPemChain } from "../tls/tls-material.js";
import { fullScanExecutor } from "./full-scan.js";
import { Worker } from "./worker.js";

type WorkerConfig = Pick<
  Config,
  "workerConcurrency" | "jobLeaseMs" | "allowPrivateTargets" | "extraCaFile" | "dnsServers" | "webhookRetryBaseMs"
>;

/** Extra CA certificates (PEM blocks) from HCS_EXTRA_CA_FILE, trusted for outbound TLS. */
export function extraCaCertificates(file: string | null): string[] {
  if (!file) return [];
  const pems = splitPemChain(readFileSync(file, "utf8"));
  if (pems.length === 0) throw new Error(`HCS_EXTRA_CA_FILE: no PEM certificate in ${file}`);
  return pems.map((p) => `${p}\n`);
}

/** The external scan's IO settings from configuration (HCS_DNS_SERVERS, HCS_EXTRA_CA_FILE): worker and vendor scans. */
export function externalScanIOOptions(config: Pick<Config, "extraCaFile" | "dnsServers">) {
  const extraCaPem = extraCaCertificates(config.extraCaFile);
  return {
    ...(config.dnsServers ? { dnsServers: [...config.dnsServers] } : {}),
    ...(extraCaPem.length > 0 ? { trustedCaPem: extraCaPem } : {}),
  };
}

/** Builds the job worker from configuration: the executors registry and the webhook sender's settings. */
export function createWorker(
  config: WorkerConfig,
  deps: { store: Store; secrets: SecretBox; logger: Logger; now: () => Date },
): Worker {
  const extraCaPem = extraCaCertificates(config.extraCaFile);
  const ioOptions = {
    ...(config.dnsServers ? { dnsServers: [...config.dnsServers] } : {}),
    ...(extraCaPem.length > 0 ? { trustedCaPem: extraCaPem } : {}),
  };
  return new Worker(
    {
      ...deps,
      executors: {
        full: fullScanExecutor({
          db: deps.store.db,
          ioOptions,
          allowPrivateTargets: config.allowPrivateTargets,
          now: deps.now,
        }),
      },
    },
    {
      concurrency: config.workerConcurrency,
      leaseMs: config.jobLeaseMs,
      webhooks: { allowPrivateTargets: config.allowPrivateTargets, extraCaPem, retryBaseMs: config.webhookRetryBaseMs },
    },
  );
}
