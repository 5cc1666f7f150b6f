import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  parsePgHba,
  parseRedisConf,
  pgTrustFindings,
  redisAuthentication,
  redisFinding,
  trustBeyondLocal,
} from "./database-configs.js";
import { listeningPorts } from "./listeners.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("Redis configuration", () => {
  it("reads Debian 12's stock redis.conf: loopback bind, protected mode, no password", () => {
    const conf = parseRedisConf(fixture("linux-redis.conf"));
    expect(conf).toEqual({
      port: 6379,
      bind: ["127.0.0.1", "::1"],
      protectedMode: true,
      requirepass: false,
      users: [],
      aclfile: false,
    });
    expect(redisAuthentication(conf)).toBe("none");
  });

  it("a password, an ACL default user with one, or turned off, is authentication; nopass is none", () => {
    const stock = fixture("linux-redis.conf");
    expect(redisAuthentication(parseRedisConf(`${stock}requirepass s3cret-value\n`))).toBe("required");
    expect(redisAuthentication(parseRedisConf(`${stock}user default on >s3cret ~* +@all\n`))).toBe("required");
    expect(redisAuthentication(parseRedisConf(`${stock}user default off\n`))).toBe("required");
    expect(redisAuthentication(parseRedisConf(`${stock}requirepass x\nuser default on nopass ~* +@all\n`))).toBe(
      "none",
    );
    expect(redisAuthentication(parseRedisConf(`${stock}aclfile /etc/redis/users.acl\n`))).toBe("unknown");
  });

  it("no password: low on loopback only, high when the socket table shows it beyond loopback; never the password", () => {
    const conf = parseRedisConf(fixture("linux-redis.conf"));
    const loopback = listeningPorts([
      { address: "127.0.0.1", port: 6379 },
      { address: "::1", port: 6379 },
    ]);
    expect(redisFinding("/etc/redis/redis.conf", conf, loopback)).toMatchObject({
      id: "ports.redis_without_password:/etc/redis/redis.conf",
      severity: "low",
      category: "access_control",
      controls: ["164.312(d)", "164.312(a)(1)"],
      evidence: { exposure: "loopback", requirepass: false },
    });
    const exposed = listeningPorts([{ address: "0.0.0.0", port: 6379 }]);
    expect(redisFinding("/etc/redis/redis.conf", conf, exposed)?.severity).toBe("high");
    const withPassword = parseRedisConf(`${fixture("linux-redis.conf")}requirepass hunter2-long\n`);
    expect(redisFinding("/etc/redis/redis.conf", withPassword, exposed)).toBeNull();
    expect(JSON.stringify(withPassword)).not.toContain("hunter2");
  });
});

describe("PostgreSQL pg_hba.conf", () => {
  it("reads this machine's pg_hba.conf: trust on the Unix socket and 127.0.0.1 only — nothing beyond local", () => {
    const entries = parsePgHba(fixture("linux-pg_hba.conf"));
    expect(entries).toEqual([
      { type: "local", database: "all", user: "all", address: null, method: "trust", line: 1 },
      { type: "host", database: "all", user: "all", address: "127.0.0.1/32", method: "trust", line: 2 },
    ]);
    expect(trustBeyondLocal(entries)).toEqual([]);
  });

  it("trust for a network, every address, a netmask column or a name is a high finding per line", () => {
    const text = `${fixture("linux-pg_hba.conf")}host all all 192.168.50.0/24 trust\nhostssl all all 0.0.0.0/0 scram-sha-256\nhost all all 10.0.0.0 255.0.0.0 trust\nhost all all ::1/128 trust\nhost all all all trust\n`;
    const findings = pgTrustFindings("/etc/postgresql/15/main/pg_hba.conf", parsePgHba(text));
    expect(findings.map((f) => [f.id, f.severity, f.evidence?.line])).toEqual([
      ["ports.postgresql_trust_auth:/etc/postgresql/15/main/pg_hba.conf:192.168.50.0/24", "high", 3],
      ["ports.postgresql_trust_auth:/etc/postgresql/15/main/pg_hba.conf:10.0.0.0_255.0.0.0", "high", 5],
      ["ports.postgresql_trust_auth:/etc/postgresql/15/main/pg_hba.conf:all", "high", 7],
    ]);
  });
});
