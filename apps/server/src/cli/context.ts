import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { type Config, loadConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { createSecretBox, loadMasterKey } from "../secrets/master-key.js";
import { openMigratedStore } from "../server.js";
import type { AuditInTransaction } from "../services/audit.js";
import type { ServiceDeps } from "../services/deps.js";
import { type OperatorOperation, type OperatorTarget, operatorAudit } from "../services/operator-audit.js";

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

export function configFrom(cli: CliEnv): Config {
  return loadConfig(cli.env, cli.cwd);
}

export function cliLogger(config: Config): Logger {
  return createLogger(config.logLevel);
}

/** Opens the store (migrating it), runs `fn` with service deps, and always closes the store. */
export async function withServices<T>(cli: CliEnv, fn: (deps: ServiceDeps) => Promise<T>): Promise<T> {
  const config = configFrom(cli);
  const store = await openMigratedStore(config);
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
