#!/usr/bin/env node
import { userInfo } from "node:os";
import { SCORING_VERSION } from "@hcs/protocol";
import { Command, CommanderError, Option } from "commander";
import pino, { type Logger } from "pino";
import { assertSharedMasterKey, MasterKeyMismatchError } from "./audit/log-keys.js";
import { registerAdminCommands } from "./cli/admin-commands.js";
import { registerAuditCommands, VerifyUsageError } from "./cli/audit-commands.js";
import { startBanner } from "./cli/banner.js";
import { registerBillingCommands } from "./cli/billing-commands.js";
import { registerClaimCommands } from "./cli/claim-commands.js";
import { type CliEnv, cliLogger, commandConfig, operatorName, storeLine } from "./cli/context.js";
import { DataUsageError, registerDataCommands } from "./cli/data-commands.js";
import { registerEnrolmentCommands } from "./cli/enrolment-commands.js";
import { writeServerRecord } from "./cli/server-record.js";
import { registerUserCommands } from "./cli/user-commands.js";
import { CONFIG_VARIABLES, ConfigError } from "./config.js";
import { isServiceError } from "./errors.js";
import { isFeedError } from "./intel/feed-error.js";
import { createWorker } from "./jobs/create-worker.js";
import { createLogger } from "./logger.js";
import { startMcpStdio } from "./mcp/stdio.js";
import { readMcpApiKey } from "./mcp/stdio-key.js";
import { isPortalError } from "./portal/portal-errors.js";
import { createSecretBox, loadMasterKey } from "./secrets/master-key.js";
import { openMigratedStore, startServer } from "./server.js";
import { regradeAfterScoringChange } from "./services/grades.js";
import { migrationsFor } from "./store/migrations/index.js";
import { openStore, storeOptionsFor } from "./store/store.js";
import { boundHeapGrowth } from "./util/heap-growth.js";
import { ExposedKeyFileError, WritableDataDirError } from "./util/private-files.js";
import { SERVER_VERSION } from "./version.js";

// The only module that touches process state: argv, env, stdout/stderr, signals and the exit code.
const cli: CliEnv = {
  env: process.env,
  cwd: process.cwd(),
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  operator: operatorName(() => userInfo().username, process.env),
};

const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

// A reader that went away (`hcs-server … | head`): nothing more can reach it, so the command ends here, quietly and
// successfully, as a Unix tool ended by SIGPIPE does (Node ignores that signal and reports EPIPE as an error event,
// which unhandled was a stack trace and exit code 1).
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(EXIT.ok);
    throw err;
  });

// The long-running commands log JSON lines to stdout. What they tell a person — where the server listens, and on
// the first start the operator key — goes to the terminal: stdout when it is one, else stderr, so that a log file
// or collector reading stdout never receives the key or lines that are not JSON.
const toPerson = process.stdout.isTTY ? cli.out : cli.err;

const program = new Command("hcs-server")
  .description("HCS — Healthcare Compliance Service: HTTPS API server, worker and operator commands")
  .version(SERVER_VERSION)
  .option("--json", "print results as JSON")
  .showHelpAfterError()
  .exitOverride()
  .addHelpText(
    "after",
    `\nConfiguration comes from the environment:\n${CONFIG_VARIABLES.map((v) => `  ${v.name.padEnd(26)} ${v.meaning} [default: ${v.default}]`).join("\n")}\n\nExit codes: 0 ok, 1 failure, 2 usage or configuration error.\n`,
  );

/** Runs `stop` once on SIGINT/SIGTERM, then exits 0 (1 if stopping failed). */
function onSignals(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    stop().then(
      () => process.exit(EXIT.ok),
      (err: unknown) => {
        logger.error({ err }, "shutdown failed");
        process.exit(EXIT.failure);
      },
    );
  };
  process.once("SIGINT", () => handle("SIGINT"));
  process.once("SIGTERM", () => handle("SIGTERM"));
}

program
  .command("serve")
  .description("Run the HTTPS server and a job worker (creates a CA and a bootstrap operator account on first start)")
  .option("--no-worker", "serve HTTP only; run `hcs-server worker` processes for the jobs")
  .addHelpText(
    "after",
    "\nExample:\n  HCS_PORT=8443 hcs-server serve\n  curl --cacert .hcs-data/tls/ca.crt https://127.0.0.1:8443/healthz\n",
  )
  .action(async (o: { worker: boolean }) => {
    const resolved = commandConfig(cli, "serve");
    const config = resolved.config;
    const logger = cliLogger(config);
    // Before the threads start (they share the setting): the peak resident memory under load (util/heap-growth.ts).
    boundHeapGrowth(process.execArgv, process.env.NODE_OPTIONS);
    const server = await startServer(config, logger, { worker: o.worker, operator: cli.operator });
    // What the operator commands on this data directory read, so they use this store and build this server's links.
    writeServerRecord(config.dataDir, {
      public_url: server.deps.config.publicUrl,
      database_url: config.databaseUrl,
      master_key: config.masterKeyHex ? "environment" : "data_dir",
      server_version: SERVER_VERSION,
      started_at: new Date().toISOString(),
    });
    for (const line of startBanner(server, resolved, { cwd: cli.cwd })) toPerson(line);
    onSignals(logger, () => server.close());
  });

program
  .command("worker")
  .description("Run job workers only (no HTTP): scans and webhook deliveries from the shared database")
  .addHelpText(
    "after",
    "\nExample (several processes sharing PostgreSQL):\n  DATABASE_URL=postgres://hcs@db/hcs HCS_MASTER_KEY=... hcs-server worker\n",
  )
  .action(async () => {
    const resolved = commandConfig(cli, "setup");
    const config = resolved.config;
    const logger = cliLogger(config);
    const store = await openMigratedStore(config, logger);
    const secrets = createSecretBox(loadMasterKey(config.dataDir, config.masterKeyHex));
    await assertSharedMasterKey(store.db, secrets).catch(async (err: unknown) => {
      await store.close();
      throw err;
    });
    const worker = createWorker(config, { store, secrets, logger, now: () => new Date() });
    worker.start();
    // The worker's own timers are unref'd (they must not hold a server or a test open), so in this process
    // nothing else keeps Node running once the database connections close — after a failover terminated them,
    // or when idle ones expire — and the worker would exit quietly. This handle keeps it up until a signal.
    const keepAlive = setInterval(() => undefined, 1 << 30);
    toPerson(
      `HCS worker ${worker.id} running (${storeLine(store, resolved)}, concurrency ${config.workerConcurrency})`,
    );
    onSignals(logger, async () => {
      clearInterval(keepAlive);
      await worker.stop();
      await store.close();
    });
  });

program
  .command("mcp")
  .description("Serve the agent methods as MCP tools over stdio, for an assistant on this machine")
  .option("--key-file <path>", "read the API key from this file (owner-only, mode 0600) instead of HCS_MCP_API_KEY")
  .addOption(new Option("--key <key>").hideHelp())
  .addHelpText(
    "after",
    "\nThe key (of the account whose credits the tools spend) comes from HCS_MCP_API_KEY or --key-file, never the\ncommand line. stdout carries MCP messages only; logs go to stderr.\n\nExample (what an MCP client's config starts):\n  HCS_MCP_API_KEY=hcs_live_... DATABASE_URL=postgres://hcs@db/hcs hcs-server mcp\n",
  )
  .action(async (o: { keyFile?: string; key?: string }) => {
    const resolved = commandConfig(cli);
    const config = resolved.config;
    // stdout is the MCP channel: logs go to stderr, which MCP clients keep as the server's log.
    const logger = createLogger(config.logLevel, pino.destination({ dest: 2, sync: true }));
    const key = readMcpApiKey({ keyFile: o.keyFile, env: cli.env.HCS_MCP_API_KEY, onCommandLine: o.key !== undefined });
    const server = await startMcpStdio(config, logger, key, { stdin: process.stdin, stdout: process.stdout });
    cli.err(storeLine(server.store, resolved));
    onSignals(logger, () => server.close());
    await server.closed;
  });

program
  .command("migrate")
  .description("Create or upgrade the database schema, then exit")
  .addHelpText(
    "after",
    "\nPrints each migration it applied, or that none was pending. Back up first (docs/operations.md#upgrading).\n",
  )
  .action(async () => {
    const resolved = commandConfig(cli, "setup");
    const config = resolved.config;
    const store = openStore(storeOptionsFor(config));
    try {
      cli.err(storeLine(store, resolved));
      const applied = await store.migrate();
      const latest = Object.keys(migrationsFor(store.engine)).at(-1);
      if (applied.length === 0) cli.out(`nothing to apply: the schema is already at the latest migration, ${latest}`);
      else {
        cli.out(`applied ${applied.length} migration${applied.length === 1 ? "" : "s"}:`);
        for (const name of applied) cli.out(`  ${name}`);
        cli.out(`the schema is at the latest migration, ${latest}`);
      }
      const secrets = createSecretBox(loadMasterKey(config.dataDir, config.masterKeyHex));
      const regraded = await regradeAfterScoringChange({ store, secrets, now: () => new Date() });
      if (regraded > 0) cli.out(`regraded ${regraded} practices under scoring version ${SCORING_VERSION}`);
    } finally {
      await store.close();
    }
  });

registerAdminCommands(program, cli);
registerBillingCommands(program, cli);
registerEnrolmentCommands(program, cli);
registerClaimCommands(program, cli);
registerAuditCommands(program, cli);
registerDataCommands(program, cli);
registerUserCommands(program, cli);

function fail(err: unknown): never {
  if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage);
  if (err instanceof VerifyUsageError || err instanceof DataUsageError) {
    cli.err(`usage error: ${err.message}`);
    process.exit(EXIT.usage);
  }
  if (
    err instanceof ConfigError ||
    err instanceof ExposedKeyFileError ||
    err instanceof WritableDataDirError ||
    err instanceof MasterKeyMismatchError
  ) {
    cli.err(`configuration error: ${err.message}`);
    process.exit(EXIT.usage);
  }
  if (isServiceError(err) || isFeedError(err) || isPortalError(err)) {
    cli.err(`error (${err.code}): ${err.message}`);
    process.exit(EXIT.failure);
  }
  cli.err(`error: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(EXIT.failure);
}

program.parseAsync(process.argv).catch(fail);
