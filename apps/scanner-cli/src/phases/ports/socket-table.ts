import type { MysqlAccountsReading } from "./linux-mysql-accounts.js";
import type { Listener } from "./listeners.js";

/** A configuration file of a database on this machine, as read (or why not). */
export interface ConfigFile {
  readonly path: string;
  /** Null when the file exists but this run may not read it (owned by the database's account, mode 640). */
  readonly text: string | null;
}

/** The host's listening TCP sockets and the table they were read from (recorded in the ports phase's facts). */
export interface SocketTable {
  readonly source: "proc_net_tcp" | "netstat";
  readonly listeners: Listener[];
  /** Linux: Redis and PostgreSQL client-authentication files found on this machine (database-configs.ts). */
  readonly databaseConfigs?: { readonly redis: ConfigFile[]; readonly pgHba: ConfigFile[] };
  /** Linux: MySQL/MariaDB accounts read from the server running here (null: none runs). */
  readonly mysqlAccounts?: MysqlAccountsReading | null;
}
