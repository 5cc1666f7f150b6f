import type { Host } from "../../host/host.js";
import { type Reading, Unavailable, unparsed } from "../shared/unavailable.js";
import { readMysqlAccounts } from "./linux-mysql-accounts.js";
import { type Listener, parseProcNetTcp } from "./listeners.js";
import type { ConfigFile, SocketTable } from "./socket-table.js";

/** A busy server's table runs to megabytes (one line per socket); the cap keeps the read bounded. */
const MAX_TABLE_BYTES = 16 * 1024 * 1024;

/** Every listening TCP socket of every process from /proc/net/tcp and tcp6 (readable without root). */
export async function linuxSocketTable(host: Host, signal?: AbortSignal): Promise<Reading<SocketTable>> {
  const [v4, v6] = await Promise.all([
    host.fs.readFile("/proc/net/tcp", MAX_TABLE_BYTES),
    host.fs.readFile("/proc/net/tcp6", MAX_TABLE_BYTES),
  ]);
  if (v4 === null) return new Unavailable("not_found", "/proc/net/tcp is not readable on this machine");
  const listeners4 = parseProcNetTcp(v4);
  if (listeners4 === null) return unparsed("/proc/net/tcp is not a kernel socket table");
  // tcp6 is absent when IPv6 is disabled: the IPv4 table is then the whole answer.
  const listeners6: Listener[] = v6 === null ? [] : (parseProcNetTcp(v6) ?? []);
  const listeners = [...listeners4, ...listeners6];
  const [configs, mysqlAccounts] = await Promise.all([
    databaseConfigs(host),
    readMysqlAccounts(host, listeners, signal),
  ]);
  return { source: "proc_net_tcp", listeners, databaseConfigs: configs, mysqlAccounts };
}

/** Where Debian/Ubuntu and RHEL-family packages put redis.conf. */
const REDIS_CONFS = ["/etc/redis/redis.conf", "/etc/redis.conf"];
/** Debian keeps one cluster per /etc/postgresql/<version>/<cluster>; RHEL keeps it in the data directory. */
const PG_ROOT = "/etc/postgresql";
const PG_RHEL_HBA = "/var/lib/pgsql/data/pg_hba.conf";

/**
 * A configuration file that is there: its text, or null when this run may not read it — also when it may not even
 * look into the file's directory (Debian's /etc/redis is 2770 redis:redis), which must not read as "no Redis here".
 */
async function configFile(host: Host, path: string): Promise<ConfigFile | null> {
  const presence = await host.fs.presence(path);
  if (presence === "absent") return null;
  return { path, text: presence === "denied" ? null : await host.fs.readFile(path) };
}

async function databaseConfigs(host: Host): Promise<NonNullable<SocketTable["databaseConfigs"]>> {
  const hbaPaths: string[] = [];
  for await (const f of host.fs.walk(PG_ROOT, { maxFiles: 500, maxDepth: 2 }))
    if (f.path.endsWith("/pg_hba.conf")) hbaPaths.push(f.path);
  const [redis, pgHba] = await Promise.all([
    Promise.all(REDIS_CONFS.map((p) => configFile(host, p))),
    Promise.all([...hbaPaths.sort(), PG_RHEL_HBA].map((p) => configFile(host, p))),
  ]);
  const found = (files: (ConfigFile | null)[]) => files.filter((f): f is ConfigFile => f !== null);
  return { redis: found(redis), pgHba: found(pgHba) };
}
