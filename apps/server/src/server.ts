import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { SCORING_VERSION } from "@hcs/protocol";
import type { Logger } from "pino";
import { pruneRateLimits } from "./accounting/index.js";
import { externalScanVendorGrades } from "./administrative/vendor-grades.js";
import { createRequestListener } from "./app.js";
import type { AppDeps } from "./app-deps.js";
import { auditLogOrigin, signCheckpoint } from "./audit/checkpoint-schedule.js";
import { provisionAuditLogKeys } from "./audit/log-keys.js";
import { AuditSequencerLoop } from "./audit/sequencer.js";
import { type Config, urlHostOf } from "./config.js";
import { loadScannerPackage } from "./downloads/scanner-package.js";
import { plainHttpRefuser } from "./http/https-only.js";
import { createMetrics, registerStoreGauges } from "./http/metrics.js";
import { createWorker, externalScanIOOptions, extraCaCertificates } from "./jobs/create-worker.js";
import type { Worker } from "./jobs/worker.js";
import { createSecretBox, loadMasterKey } from "./secrets/master-key.js";
import { type BootstrapResult, bootstrapOperatorAccount } from "./services/bootstrap.js";
import { CLAIM_RECHECK_INTERVAL_MS, recheckClaims } from "./services/claims/claims.js";
import { proofIOFor } from "./services/claims/proof-io.js";
import { regradeAfterScoringChange } from "./services/grades.js";
import { startFeedRefresh } from "./services/intel/feed-refresh.js";
import { hhsVendorBreachHistory } from "./services/intel/vendor-breach-history.js";
import { openStore, type Store, storeOptionsFor } from "./store/store.js";
import { type ConnectionRefusal, limitConnections, serverTimeoutOptions } from "./tls/connection-limits.js";
import { SERVER_TLS_OPTIONS } from "./tls/server-options.js";
import { certificateHosts, ensureSelfManagedTls, loadConfiguredTls, type TlsMaterial } from "./tls/tls-material.js";
import { SERVER_VERSION } from "./version.js";

export interface RunningServer {
  /** The URL the HTTPS listener answers on (the actual port when HCS_PORT=0). */
  readonly url: string;
  readonly port: number;
  readonly httpPort: number | null;
  readonly tls: TlsMaterial;
  readonly deps: AppDeps;
  readonly bootstrap: BootstrapResult | null;
  /** The job worker running in this process, or null with `worker: false`. */
  readonly worker: Worker | null;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Run a job worker in this process (the default for `hcs-server serve`). */
  readonly worker?: boolean;
  readonly now?: () => Date;
  /** The OS user starting the server: the bootstrap account and key are audited as this operator's. */
  readonly operator?: string;
}

function listen(server: HttpServer | HttpsServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: HttpServer | HttpsServer): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    // Requests still in flight get a short grace period, then their sockets are closed.
    setTimeout(() => server.closeAllConnections(), 5_000).unref();
  });
}

/** Opens the configured store and applies pending migrations; store events go to the logger. */
export async function openMigratedStore(
  config: Pick<Config, "dataDir" | "databaseUrl" | "dbTimeouts">,
  logger?: Logger,
): Promise<Store> {
  const store = openStore(
    storeOptionsFor(config, {
      onConnectionError: (err) =>
        logger?.warn(
          { err: { message: err.message, code: (err as { code?: string }).code } },
          "database connection lost; it is replaced on next use",
        ),
      onWarning: (message) => logger?.warn(message),
    }),
  );
  try {
    await store.migrate();
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

/**
 * Starts the HTTPS server (and the optional plain-HTTP refuser): store, migrations, TLS material, bootstrap
 * account on first start, periodic maintenance. Does not touch process-level state (signals, exit codes).
 */
export async function startServer(config: Config, logger: Logger, options: StartOptions = {}): Promise<RunningServer> {
  const now = options.now ?? (() => new Date());
  const store = await openMigratedStore(config, logger);
  const tls = config.tls
    ? loadConfiguredTls(config.tls.certFile, config.tls.keyFile)
    : ensureSelfManagedTls(config.dataDir, certificateHosts(config.host, config.publicUrl), now());
  const secrets = createSecretBox(loadMasterKey(config.dataDir, config.masterKeyHex));
  // Listen first (with a handler that answers 503 for the instant before the app exists), so that with
  // HCS_PORT=0 the public URL can carry the port actually bound.
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res
      .writeHead(503, { "Content-Type": "application/json", Connection: "close" })
      .end('{"error":{"code":"unavailable","message":"starting","request_id":""}}');
  };
  const metrics = createMetrics();
  const refused = (reason: ConnectionRefusal) => metrics.connectionsRefused.inc({ reason });
  const limits = config.connectionLimits;
  const https = createHttpsServer(
    { cert: tls.certChainPem, key: tls.keyPem, ...SERVER_TLS_OPTIONS, ...serverTimeoutOptions(limits) },
    (req, res) => handle(req, res),
  );
  limitConnections(https, limits, config.trustProxy, refused);
  const port = await listen(https, config.port, config.host);
  const url = `https://${urlHostOf(config.host)}:${port}`;
  const publicUrl = config.publicUrlExplicit ? config.publicUrl : url;
  // One log, one origin and one signing key for every process on the database (docs/audit.md#checkpoints-and-the-log-key):
  // provisioned by the first process to start, loaded by the others; a master key that does not open it stops the start.
  const auditLogKey = await provisionAuditLogKeys(store, secrets, {
    origin: auditLogOrigin(publicUrl),
    now: now(),
    dataDir: config.dataDir,
    logger,
  }).catch(async (err: unknown) => {
    await closeServer(https);
    await store.close();
    throw err;
  });

  const startedAt = performance.now();
  registerStoreGauges(metrics, () => store.poolStats());
  // Checkpoints are anchored on an EVM chain only when configured (HCS_ANCHOR_*); the log works the same without.
  // Loaded only then: the chain client (viem) is ~15 MiB of resident memory a server without anchoring never uses.
  const anchoring = config.anchor
    ? (await import("./audit/anchor/anchor-loop.js")).createAuditAnchoring(config.anchor, {
        store,
        logger,
        now,
        registry: metrics.registry,
      })
    : null;
  const worker = options.worker === false ? null : createWorker(config, { store, secrets, logger, now });
  const scannerPackage = loadScannerPackage(config.scannerDir);
  const deps: AppDeps = {
    store,
    now,
    secrets,
    config: { ...config, publicUrl },
    portal: { idleMinutes: config.portalIdleMinutes },
    logger,
    tls: { caSha256: tls.caSha256 },
    metrics,
    uptimeSeconds: () => (performance.now() - startedAt) / 1000,
    version: SERVER_VERSION,
    auditLogKey,
    breachHistory: hhsVendorBreachHistory(store.db),
    vendorGrades: externalScanVendorGrades({
      ioOptions: externalScanIOOptions(config),
      allowPrivateTargets: config.allowPrivateTargets,
      now,
    }),
    ...(worker ? { wakeWorker: () => worker.wake() } : {}),
    downloads: { scanner: scannerPackage.ok ? scannerPackage.pkg : null, caPem: tls.caPem },
    ...(anchoring ? { auditAnchoring: anchoring } : {}),
  };
  if (scannerPackage.ok)
    logger.info({ file: scannerPackage.pkg.file, sha256: scannerPackage.pkg.sha256 }, "serving the scanner package");
  else logger.warn({ reason: scannerPackage.reason }, "no scanner package to serve at /downloads/");
  const bootstrap = await bootstrapOperatorAccount(deps, options.operator ?? null);
  const regraded = await regradeAfterScoringChange(deps);
  if (regraded > 0)
    logger.info({ practices: regraded, scoring_version: SCORING_VERSION }, "regraded after a scoring change");

  handle = createRequestListener(deps);
  worker?.start();
  let plain: HttpServer | null = null;
  let httpPort: number | null = null;
  if (config.httpPort !== null) {
    plain = createHttpServer(serverTimeoutOptions(limits), plainHttpRefuser());
    limitConnections(plain, limits, config.trustProxy, refused);
    httpPort = await listen(plain, config.httpPort, config.host);
  }

  // The audit log's sequencer (one at a time across processes: others skip while one holds the log).
  const sequencer = new AuditSequencerLoop(store, logger);
  sequencer.start();
  anchoring?.start();
  const checkpoints = setInterval(() => {
    void signCheckpoint(deps, sequencer).then(() => anchoring?.wake());
  }, config.checkpointIntervalMs);
  checkpoints.unref();

  // Threat-intelligence feeds refresh on a schedule only when the operator turns it on (HCS_FEEDS_REFRESH).
  const feeds = config.feedsRefresh
    ? startFeedRefresh(deps, config.feedsRefresh, extraCaCertificates(config.extraCaFile), logger)
    : null;

  const maintenance = setInterval(() => {
    pruneRateLimits(deps).catch((err: unknown) => logger.warn({ err }, "rate-limit pruning failed"));
    // A key rotated by another process or `audit rotate-key` is published within a minute (and signs at once: a
    // checkpoint reads the newest key in its own transaction).
    auditLogKey.currentIn(store.db).catch((err: unknown) => logger.warn({ err }, "reading the audit log's key failed"));
  }, 60_000);
  maintenance.unref();

  // Proved claims are re-checked where the worker runs: hourly, each proof once its last check is a day old
  // (docs/onboarding.md#lapsed-proof).
  const claimRechecks = worker
    ? setInterval(() => {
        recheckClaims(deps, proofIOFor(deps.config)).then(
          (r) => (r.checked > 0 ? logger.info({ ...r }, "claims re-checked") : undefined),
          (err: unknown) => logger.warn({ err }, "claim re-check failed"),
        );
      }, CLAIM_RECHECK_INTERVAL_MS)
    : null;
  claimRechecks?.unref();

  return {
    url,
    port,
    httpPort,
    tls,
    deps,
    bootstrap,
    worker,
    async close() {
      clearInterval(maintenance);
      clearInterval(checkpoints);
      if (claimRechecks) clearInterval(claimRechecks);
      await feeds?.stop();
      await Promise.all([closeServer(https), plain ? closeServer(plain) : Promise.resolve(), worker?.stop()]);
      // What the last requests appended is sequenced before the store closes.
      await anchoring?.stop();
      await sequencer.stop();
      await sequencer.tick();
      await store.close();
    },
  };
}
