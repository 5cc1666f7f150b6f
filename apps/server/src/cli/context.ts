import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Logger } from "pino";
import { type Config, ConfigError, loadConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { createSecretBox, loadMasterKey } from "../secrets/master-key.js";
import { openMigratedStore } from "../server.js";
import type { AuditInTransaction } from "../services/audit.js";
import type { ServiceDeps } from "../services/deps.js";
import { type OperatorOperation, type OperatorTarget, operatorAudit } from "../services/operator-audit.js";
import type { Store } from "../store/store.js";
import { checkDataDirMode } from "../util/private-files.js";
import { readServerRecord, SERVER_RECORD_FILE, type ServerRecord } from "./server-record.js";

/** What a CLI command needs: the validated config, and a way to run with services over the migrated store. */
export interface CliEnv {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** The OS user running the command: operator commands' audit events name them. */
  readonly operator: string;
}

/**
 * The OS user's name for audit events: the account of the process's uid, else $USER or $LOGNAME (a uid with no
 * passwd entry, as in some containers), else "unknown".
 */
export function operatorName(username: () => string, env: CliEnv["env"]): string {
  try {
    const name = username();
    if (name) return name;
  } catch {
    // No passwd entry for this uid: fall back to the environment.
  }
  return env.USER || env.LOGNAME || "unknown";
}

/**
 * The audit hook of one operator command's change (see services/operator-audit.ts): its operation, what it touched,
 * the OS user, and a fresh request id.
 */
export function auditedAs<R>(
  cli: CliEnv,
  deps: ServiceDeps,
  operation: OperatorOperation,
  target: (done: R) => OperatorTarget,
): AuditInTransaction<R> {
  return operatorAudit({ operator: cli.operator, requestId: randomUUID(), now: deps.now }, operation, target);
}

/**
 * How a command stands to its data directory. `serve` writes the server record (server-record.ts) and takes only the
 * store and the master key's origin from it, never the public URL (it derives its own from where it listens);
 * `worker` and `migrate` may also set up a new data directory; every other command (`mcp` and the operator commands)
 * acts on an existing one, and refuses a directory that does not exist rather than create an empty store there.
 */
export type CommandRole = "serve" | "setup" | "operator";

/** A command's configuration: its environment over the record of the server that runs on the same data directory. */
export interface CommandConfig {
  readonly config: Config;
  /** The record read from the data directory, or null when no server has started there. */
  readonly record: ServerRecord | null;
  /** The variables the command's environment lacked and took from the record. */
  readonly fromRecord: readonly ("DATABASE_URL" | "HCS_PUBLIC_URL")[];
}

const isSet = (env: CliEnv["env"], name: string) => env[name] !== undefined && env[name] !== "";

/**
 * The configuration of a command run on the data directory HCS_DATA_DIR names: what the environment sets wins;
 * DATABASE_URL and (but for `serve`) HCS_PUBLIC_URL it does not set come from the server's record; a server that took
 * its master key from HCS_MASTER_KEY needs it here too. Throws ConfigError (exit 2) naming the variable.
 * See docs/operations.md#one-configuration-the-data-directorys-serverjson.
 */
export function commandConfig(cli: CliEnv, role: CommandRole = "operator"): CommandConfig {
  const own = loadConfig(cli.env, cli.cwd);
  if (role === "operator" && !existsSync(own.dataDir)) throw new ConfigError("HCS_DATA_DIR", noDataDir(cli, own));
  // A record in a directory anyone may write to could point this command at someone else's database: the
  // directory is checked before anything in it is read (private-files.ts).
  checkDataDirMode(own.dataDir);
  const record = readServerRecord(own.dataDir);
  if (!record) return { config: own, record, fromRecord: [] };
  const recordFile = join(own.dataDir, SERVER_RECORD_FILE);
  if (record.master_key === "environment" && !isSet(cli.env, "HCS_MASTER_KEY"))
    throw new ConfigError(
      "HCS_MASTER_KEY",
      `the server on ${own.dataDir} takes its master key from HCS_MASTER_KEY (${recordFile}); give this command the same value (it is never written down)`,
    );
  const env = { ...cli.env };
  const fromRecord: ("DATABASE_URL" | "HCS_PUBLIC_URL")[] = [];
  if (!isSet(cli.env, "DATABASE_URL") && record.database_url !== null) {
    env.DATABASE_URL = record.database_url;
    fromRecord.push("DATABASE_URL");
  }
  if (role !== "serve" && !isSet(cli.env, "HCS_PUBLIC_URL")) {
    env.HCS_PUBLIC_URL = record.public_url;
    fromRecord.push("HCS_PUBLIC_URL");
  }
  return { config: fromRecord.length > 0 ? loadConfig(env, cli.cwd) : own, record, fromRecord };
}

/** Why a data directory that does not exist is refused, naming where HCS_DATA_DIR led and how to get it right. */
function noDataDir(cli: CliEnv, config: Config): string {
  const given = cli.env.HCS_DATA_DIR;
  const how = isSet(cli.env, "HCS_DATA_DIR")
    ? `HCS_DATA_DIR=${given}${isAbsolute(given!) ? "" : ` from ${cli.cwd}`}`
    : `HCS_DATA_DIR unset: ./.hcs-data from ${cli.cwd}`;
  return (
    `no data directory at ${config.dataDir} (${how}): run the command where the server runs, or set HCS_DATA_DIR ` +
    "to the absolute path the server prints at start; only serve, worker and migrate create a data directory"
  );
}

/** The command's configuration (see {@link commandConfig}). */
export function configFrom(cli: CliEnv, role: CommandRole = "operator"): Config {
  return commandConfig(cli, role).config;
}

/** The line every command prints (on stderr) about the store it opened, and where its setting came from. */
export function storeLine(store: Pick<Store, "description">, resolved: CommandConfig): string {
  const recorded = resolved.fromRecord.includes("DATABASE_URL")
    ? ` (DATABASE_URL from ${join(resolved.config.dataDir, SERVER_RECORD_FILE)})`
    : "";
  return `store: ${store.description}${recorded}`;
}

/** Opens the command's store (migrating it) and says which one it opened. */
export async function openCommandStore(
  cli: CliEnv,
  role: CommandRole = "operator",
): Promise<{ store: Store; config: Config }> {
  const resolved = commandConfig(cli, role);
  const store = await openMigratedStore(resolved.config);
  cli.err(storeLine(store, resolved));
  return { store, config: resolved.config };
}

export function cliLogger(config: Config): Logger {
  return createLogger(config.logLevel);
}

/** Opens the store (migrating it), runs `fn` with service deps, and always closes the store. */
export async function withServices<T>(cli: CliEnv, fn: (deps: ServiceDeps) => Promise<T>): Promise<T> {
  const { store, config } = await openCommandStore(cli);
  try {
    const secrets = createSecretBox(loadMasterKey(config.dataDir, config.masterKeyHex));
    return await fn({ store, secrets, now: () => new Date() });
  } finally {
    await store.close();
  }
}

/** Prints a result as JSON (for scripts) or as aligned `label: value` lines (for people). */
export function printResult(
  cli: CliEnv,
  json: boolean,
  value: Record<string, unknown> | Record<string, unknown>[],
): void {
  if (json) {
    cli.out(JSON.stringify(value, null, 2));
    return;
  }
  const rows = Array.isArray(value) ? value : [value];
  if (rows.length === 0) {
    cli.out("(none)");
    return;
  }
  for (const [i, row] of rows.entries()) {
    if (i > 0) cli.out("");
    const width = Math.max(...Object.keys(row).map((k) => k.length));
    for (const [k, v] of Object.entries(row))
      cli.out(`${k.padEnd(width)}  ${v === null || v === undefined ? "-" : String(v)}`);
  }
}
