/**
 * What matters about a database on this machine, read from its configuration rather than guessed from a port: does
 * Redis ask for a password, does PostgreSQL let network clients in without one (`trust` in pg_hba.conf). Pure
 * parsers (fixtures in ports/fixtures, provenance in phases/FIXTURES.md) and the findings. Passwords are never kept:
 * only whether one is set.
 */

import type { FindingInput } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";
import type { PrivilegeGap } from "../shared/privilege-gap.js";
import { exposureOf, type ListeningPort } from "./listeners.js";

/** Authentication is 164.312(d); a database anyone can open is an access-control failure (164.312(a)(1)). */
export const AUTHENTICATION = ["164.312(d)", "164.312(a)(1)"] as const;

export interface RedisConfig {
  readonly port: number;
  readonly bind: readonly string[];
  readonly protectedMode: boolean;
  /** `requirepass` is set (its value is never read out). */
  readonly requirepass: boolean;
  /** ACL users declared in the file: name, enabled, and whether it needs no password (`nopass`). */
  readonly users: readonly { name: string; on: boolean; nopass: boolean; hasPassword: boolean }[];
  /** An external ACL file is configured; its users are not read. */
  readonly aclfile: boolean;
}

/** `redis.conf`: the directives that decide who may connect. */
export function parseRedisConf(text: string): RedisConfig {
  let port = 6379;
  let bind: string[] = [];
  let protectedMode = true;
  let requirepass = false;
  let aclfile = false;
  const users: RedisConfig["users"][number][] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [directive = "", ...args] = line.split(/\s+/);
    switch (directive.toLowerCase()) {
      case "port":
        if (/^\d{1,5}$/.test(args[0] ?? "")) port = Number(args[0]);
        break;
      case "bind":
        // `-::1`: bind if the address exists; the address is the same.
        bind = args.map((a) => a.replace(/^-/, ""));
        break;
      case "protected-mode":
        protectedMode = (args[0] ?? "").toLowerCase() !== "no";
        break;
      case "requirepass":
        requirepass = (args[0] ?? "") !== "" && args[0] !== '""';
        break;
      case "aclfile":
        aclfile = true;
        break;
      case "user": {
        const rules = args.slice(1);
        users.push({
          name: args[0] ?? "",
          on: rules.includes("on"),
          nopass: rules.includes("nopass"),
          hasPassword: rules.some((r) => r.startsWith(">") || r.startsWith("#")),
        });
        break;
      }
    }
  }
  return { port, bind, protectedMode, requirepass, users, aclfile };
}

/**
 * Whether Redis's default user (the one every client is before AUTH) needs a password: `required`, `none`, or
 * `unknown` when an external ACL file decides (not read).
 */
export function redisAuthentication(conf: RedisConfig): "required" | "none" | "unknown" {
  const def = conf.users.find((u) => u.name === "default");
  if (def) return !def.on || (def.hasPassword && !def.nopass) ? "required" : "none";
  if (conf.requirepass) return "required";
  return conf.aclfile ? "unknown" : "none";
}

export interface HbaEntry {
  readonly type: string;
  readonly database: string;
  readonly user: string;
  /** Address or host name for host* lines; null for `local` (Unix socket). */
  readonly address: string | null;
  readonly method: string;
  readonly line: number;
}

/** `pg_hba.conf`: one entry per line (type, database, user, [address [mask]], method, options). */
export function parsePgHba(text: string): HbaEntry[] {
  const out: HbaEntry[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") return;
    const f = line.split(/\s+/);
    const type = f[0] ?? "";
    if (type === "local" && f.length >= 4) {
      out.push({ type, database: f[1]!, user: f[2]!, address: null, method: f[3]!, line: i + 1 });
    } else if (/^host(ssl|nossl|gssenc|nogssenc)?$/.test(type) && f.length >= 5) {
      // An IPv4 address may be followed by a separate netmask column.
      const maskFollows = /^\d{1,3}(\.\d{1,3}){3}$/.test(f[3]!) && /^\d{1,3}(\.\d{1,3}){3}$/.test(f[4] ?? "");
      const address = maskFollows ? `${f[3]} ${f[4]}` : f[3]!;
      const method = maskFollows ? f[5] : f[4];
      if (method) out.push({ type, database: f[1]!, user: f[2]!, address, method, line: i + 1 });
    }
  });
  return out;
}

/** A host address of pg_hba.conf that only this machine can come from. */
function loopbackOnly(address: string): boolean {
  if (address === "localhost" || address === "samehost") return true;
  const [ip = "", bits] = address.split(/[/ ]/);
  if (exposureOf(ip) !== "loopback") return false;
  // 127.0.0.1/0 would be everything: the prefix must stay inside loopback.
  if (ip.includes(":")) return bits === undefined || bits === "128";
  return bits === undefined || Number(bits) >= 8 || bits === "255.0.0.0" || bits === "255.255.255.255";
}

/** `trust` entries that let network clients in without a password (host lines beyond loopback). */
export function trustBeyondLocal(entries: readonly HbaEntry[]): HbaEntry[] {
  return entries.filter((e) => e.method === "trust" && e.address !== null && !loopbackOnly(e.address));
}

/** Whether `port` listens beyond loopback according to the socket table (null: the table does not show it). */
function exposure(listening: readonly ListeningPort[] | null, port: number): "network" | "loopback" | null {
  return listening?.find((l) => l.port === port)?.exposure ?? null;
}

export function redisFinding(
  path: string,
  conf: RedisConfig,
  listening: readonly ListeningPort[] | null,
): FindingInput | null {
  if (redisAuthentication(conf) !== "none") return null;
  const exposed = exposure(listening, conf.port);
  const beyondLoopback = exposed === "network";
  return phaseFinding("ports", {
    check: "redis_without_password",
    subject: path,
    // Reachable from the segment, anyone can read and change it; on loopback only, any local process or user can.
    severity: beyondLoopback ? "high" : "low",
    category: "access_control",
    controls: AUTHENTICATION,
    title: beyondLoopback
      ? `Redis (TCP ${conf.port}) needs no password and listens beyond loopback`
      : `Redis (TCP ${conf.port}) needs no password`,
    detail: beyondLoopback
      ? "Every machine that reaches it can read and change everything it holds."
      : "Any process or user on this machine can read and change everything it holds; one binding change exposes it to the segment.",
    remediation:
      "Set requirepass (or an ACL user for each application, with the default user off) in redis.conf and restart Redis; keep bind 127.0.0.1 -::1 unless other machines need it.",
    evidence: {
      config: path,
      port: conf.port,
      bind: [...conf.bind],
      protected_mode: conf.protectedMode,
      requirepass: false,
      exposure: exposed ?? "unknown",
    },
  });
}

export function pgTrustFindings(path: string, entries: readonly HbaEntry[]): FindingInput[] {
  return trustBeyondLocal(entries).map((e) =>
    phaseFinding("ports", {
      check: "postgresql_trust_auth",
      subject: `${path}:${e.address}`,
      severity: "high",
      category: "access_control",
      controls: AUTHENTICATION,
      title: `PostgreSQL lets clients from ${e.address} in without a password (trust)`,
      detail: `pg_hba.conf line ${e.line} (${e.type} ${e.database} ${e.user} ${e.address} trust) accepts any claimed user name, including superusers, from those addresses.`,
      remediation:
        "Replace trust with scram-sha-256 for every host line (and hostssl for clients on other machines), then reload PostgreSQL.",
      evidence: { config: path, line: e.line, type: e.type, database: e.database, user: e.user, address: e.address },
    }),
  );
}

/** Redis's default port, for judging an unreadable redis.conf by what the socket table shows. */
const REDIS_PORT = 6379;

/**
 * What an authentication setting this run could not read counts as (privilege-gap.ts): the most severe finding its
 * check raises here — a PostgreSQL trust line is always high; Redis without a password is high when the socket table
 * shows Redis bound beyond loopback, else low. Pure.
 */
export function unreadableConfigGap(
  kind: "redis" | "postgresql",
  path: string,
  listening: readonly ListeningPort[] | null,
): PrivilegeGap {
  const reason = `${path} is readable by root (or the database's own account) only, and this run is not root`;
  return kind === "redis"
    ? {
        check: "database_configs",
        subject: path,
        what: `whether Redis asks for a password (${path})`,
        reason,
        severity: exposure(listening, REDIS_PORT) === "network" ? "high" : "low",
        category: "access_control",
        controls: AUTHENTICATION,
      }
    : {
        check: "database_configs",
        subject: path,
        what: `whether PostgreSQL lets network clients in without a password (${path})`,
        reason,
        severity: "high",
        category: "access_control",
        controls: AUTHENTICATION,
      };
}
