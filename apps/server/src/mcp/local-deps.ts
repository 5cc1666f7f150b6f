import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import type { AppDeps } from "../app-deps.js";
import type { Config } from "../config.js";
import { createMetrics } from "../http/metrics.js";
import { createSecretBox, loadMasterKey } from "../secrets/master-key.js";
import type { Store } from "../store/store.js";
import { certificateSha256 } from "../tls/certificates.js";
import { splitPemChain } from "../tls/tls-material.js";
import { SERVER_VERSION } from "../version.js";

/**
 * The CA fingerprint clients pin, read from the configured chain or the self-managed CA — never created here: a
 * process without a listener does not issue certificates. Empty before the first `hcs-server serve`.
 */
function caFingerprintOf(config: Config): string {
  const file = config.tls?.certFile ?? join(config.dataDir, "tls", "ca.crt");
  if (!existsSync(file)) return "";
  const certs = splitPemChain(readFileSync(file, "utf8"));
  return certs.length > 0 ? certificateSha256(`${certs[certs.length - 1]!}\n`) : "";
}

/**
 * What operations need, for a process that serves them without an HTTP listener (`hcs-server mcp`): the store,
 * clock and secrets of every command, the configured public URL (links in results point at the HTTPS server), and
 * no worker to wake (a dispatched scan waits for a `serve` or `worker` process, which poll for jobs).
 */
export function localAppDeps(config: Config, logger: Logger, store: Store): AppDeps {
  const startedAt = performance.now();
  return {
    store,
    now: () => new Date(),
    secrets: createSecretBox(loadMasterKey(config.dataDir, config.masterKeyHex)),
    config,
    logger,
    tls: { caSha256: caFingerprintOf(config) },
    metrics: createMetrics(),
    uptimeSeconds: () => (performance.now() - startedAt) / 1000,
    version: SERVER_VERSION,
  };
}
