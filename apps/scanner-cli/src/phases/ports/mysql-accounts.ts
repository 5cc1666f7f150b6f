/**
 * MySQL and MariaDB accounts that log in without a password, read from the server itself (only it knows): one
 * read-only SELECT over mysql.user that returns, per account, whether its password is empty — never the hash.
 * Pure: the queries, the parser of the client's batch output, and the findings.
 */
import type { FindingInput } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";
import { exposureOf } from "./listeners.js";

/**
 * MariaDB (10.4+): mysql.user is a view over mysql.global_priv, whose JSON holds the lock; the view's plugin and
 * authentication string are the account's password method (an `IDENTIFIED VIA unix_socket OR mysql_native_password
 * USING ''` account shows the empty native password, which any local user can use).
 */
export const MARIADB_ACCOUNTS_QUERY =
  "SELECT u.User, u.Host, u.plugin, u.authentication_string = '', IFNULL(JSON_VALUE(g.Priv, '$.account_locked'), 'false'), u.is_role FROM mysql.user u LEFT JOIN mysql.global_priv g ON g.User = u.User AND g.Host = u.Host";
/** MySQL 5.7 and 8: the lock is a column; there are no role rows (roles are locked accounts). */
export const MYSQL_ACCOUNTS_QUERY =
  "SELECT User, Host, plugin, authentication_string = '', account_locked, 'N' FROM mysql.user";

/** Plugins that authenticate with a password the server stores; the others (unix_socket, auth_socket, PAM, GSSAPI) do not. */
const PASSWORD_PLUGINS = new Set([
  "",
  "mysql_native_password",
  "mysql_old_password",
  "caching_sha2_password",
  "sha256_password",
  "ed25519",
  "parsec",
]);

export interface MysqlAccount {
  readonly user: string;
  readonly host: string;
  readonly plugin: string;
  readonly emptyPassword: boolean;
  readonly locked: boolean;
  readonly role: boolean;
}

/** The client's batch output (`-B -N`: tab-separated, no header) of either query; null when it is not that. */
export function parseMysqlAccounts(text: string): MysqlAccount[] | null {
  const rows = text.split("\n").filter((l) => l.trim() !== "");
  const accounts: MysqlAccount[] = [];
  for (const row of rows) {
    const f = row.split("\t");
    if (f.length !== 6) return null;
    accounts.push({
      user: f[0]!,
      host: f[1]!,
      plugin: f[2]!,
      emptyPassword: f[3] === "1",
      locked: ["1", "true", "Y"].includes(f[4]!),
      role: f[5] === "Y",
    });
  }
  return accounts;
}

/** Accounts anyone may log in as without a password: a password method with an empty password, not locked, not a role. */
export function passwordlessAccounts(accounts: readonly MysqlAccount[]): MysqlAccount[] {
  return accounts.filter((a) => a.emptyPassword && PASSWORD_PLUGINS.has(a.plugin) && !a.locked && !a.role);
}

/** Account hosts only this machine can connect from. */
const localHost = (host: string) => host === "localhost" || exposureOf(host) === "loopback";

/**
 * One finding per passwordless account: high when the server listens beyond loopback (and the host firewall does
 * not drop connections to it) and the account admits clients from elsewhere (`%`, a network, a name), medium otherwise — any local process or user can still log in
 * and read every database the account can, ePHI included.
 */
export function mysqlPasswordlessFindings(
  accounts: readonly MysqlAccount[],
  serverExposure: "network" | "loopback" | "unknown",
  /** False when the host firewall drops connections to the server's port (firewall-exposure.ts). */
  firewallAdmits = true,
): FindingInput[] {
  return passwordlessAccounts(accounts).map((a) => {
    const remote = serverExposure === "network" && firewallAdmits && !localHost(a.host);
    const name = `'${a.user}'@'${a.host}'`;
    return phaseFinding("ports", {
      check: "mysql_account_without_password",
      // `%` (any host) would become `_` in the id: spelled out so the id reads as what it means.
      subject: `${a.user || "anonymous"}@${a.host === "%" ? "any" : a.host}`,
      severity: remote ? "high" : "medium",
      category: "access_control",
      controls: ["164.312(d)", "164.312(a)(1)"],
      title: `MySQL/MariaDB account ${a.user === "" ? `${name} (anonymous)` : name} logs in without a password`,
      detail: remote
        ? "The server listens beyond loopback and the account admits clients from other machines: anyone on the segment can log in and read or change every database the account may."
        : "Any process or user on this machine can log in as it and read or change every database the account may, ePHI included.",
      remediation: `Set a password (ALTER USER ${name} IDENTIFIED BY '…'), or use unix_socket authentication for local administration, or drop the account if nothing uses it.`,
      evidence: {
        user: a.user,
        host: a.host,
        plugin: a.plugin,
        server_exposure: serverExposure,
        ...(serverExposure === "network" && !firewallAdmits ? { firewall_drops_connections: true } : {}),
        source: "mysql.user",
      },
    });
  });
}
