import type { Host } from "../../host/host.js";
import type { Listener } from "./listeners.js";
import {
  MARIADB_ACCOUNTS_QUERY,
  MYSQL_ACCOUNTS_QUERY,
  type MysqlAccount,
  parseMysqlAccounts,
} from "./mysql-accounts.js";

export type MysqlAccountsReading =
  | { readonly accounts: MysqlAccount[]; readonly via: string }
  | { readonly unavailable: string };

const MYSQL_PORT = 3306;
/** Option files are not read (`--no-defaults`): no stored credentials are used, only root without a password. */
const BASE = ["--no-defaults", "-u", "root", "--password=", "--connect-timeout=3", "-B", "-N"];
/** A query the server does not know (no global_priv or is_role on MySQL): try MySQL's shape. */
const NOT_MARIADB = /ERROR (1054|1146)/;

/**
 * When MySQL or MariaDB runs here (port 3306 in the socket table, or its process), its accounts through the
 * mysql/mariadb client: as root over the Unix socket (Debian's root@localhost authenticates the OS root by
 * unix_socket), then as root without a password to 127.0.0.1. One read-only SELECT with a short timeout; nothing is
 * ever changed. Null when no server runs here.
 */
export async function readMysqlAccounts(
  host: Host,
  listeners: readonly Listener[],
  signal?: AbortSignal,
): Promise<MysqlAccountsReading | null> {
  const listening = listeners.some((l) => l.port === MYSQL_PORT);
  const running = (await host.sysinfo.processes()).some((p) => p.name === "mysqld" || p.name === "mariadbd");
  if (!listening && !running) return null;
  const connections: [string, string[]][] = [["the Unix socket", []]];
  if (listening) connections.push(["127.0.0.1", ["-h", "127.0.0.1", "-P", String(MYSQL_PORT)]]);
  const reasons: string[] = [];
  for (const client of ["mariadb", "mysql"]) {
    for (const [where, args] of connections) {
      const run = (query: string) => host.exec(client, [...BASE, ...args, "-e", query], { signal, timeoutMs: 8_000 });
      let r = await run(MARIADB_ACCOUNTS_QUERY);
      if (r.notFound) break;
      if (!r.ok && NOT_MARIADB.test(r.stderr)) r = await run(MYSQL_ACCOUNTS_QUERY);
      const accounts = r.ok ? parseMysqlAccounts(r.stdout) : null;
      if (accounts) return { accounts, via: `${client} as root through ${where}` };
      reasons.push(
        `${client} through ${where}: ${r.timedOut ? "no answer in time" : r.stderr.trim().split("\n")[0]?.slice(0, 160) || "no readable answer"}`,
      );
    }
    if (reasons.length > 0) break;
  }
  return { unavailable: reasons.length > 0 ? reasons.join("; ") : "no mysql or mariadb client on this machine" };
}
