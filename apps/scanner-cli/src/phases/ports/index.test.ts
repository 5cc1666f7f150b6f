import { readFileSync } from "node:fs";
import { PhaseResultSchema } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { createFakeHost } from "../../host/fake-host.js";
import { runPhases } from "../../runner/run-phases.js";
import { portsPhase } from "./index.js";
import { MARIADB_ACCOUNTS_QUERY } from "./mysql-accounts.js";
import { openPortsOf } from "./open-ports.js";

describe("ports phase", () => {
  it("flags risky services on the hosts in scope and records every open port", async () => {
    const host = createFakeHost({
      platform: "linux",
      net: { open: ["127.0.1.5:23", "127.0.1.5:443", "127.0.1.9:2575", "127.0.1.9:104", "127.0.1.9:5432"] },
    });
    const scope = { mode: "targets" as const, hosts: ["127.0.1.5", "127.0.1.9"], given: ["127.0.1.5", "127.0.1.9"] };
    const [result] = await runPhases({ host, phases: [portsPhase], scope, options: { ephiPaths: [] } });
    expect(PhaseResultSchema.parse(result).status).toBe("ok");
    expect(result!.findings.map((f) => [f.id, f.severity])).toEqual([
      ["ports.risky_service:127.0.1.5:23", "critical"],
      ["ports.risky_service:127.0.1.9:104", "high"],
      ["ports.risky_service:127.0.1.9:2575", "high"],
      ["ports.risky_service:127.0.1.9:5432", "high"],
    ]);
    expect(
      result!.findings.every((f) => f.controls.includes("164.312(e)(1)") && f.category === "network_security"),
    ).toBe(true);
    expect(openPortsOf({ status: "ok", facts: result!.facts, findings: [] })).toHaveLength(5);
    expect(host.calls.connect.every((c) => c.startsWith("127.0.1.5:") || c.startsWith("127.0.1.9:"))).toBe(true);
  });

  it("without a socket table, probes the fixed list through loopback and says the exposure was not assessed", async () => {
    const host = createFakeHost({ platform: "win32", net: { open: ["127.0.0.1:3389"] } });
    const scope = { mode: "host" as const, hosts: ["127.0.0.1"], given: [] };
    const [result] = await runPhases({ host, phases: [portsPhase], scope, options: { ephiPaths: [] } });
    expect(result!.findings[0]?.title).toContain("its bind address could not be read");
    expect(result!.findings[0]?.evidence).toMatchObject({ exposure: "unknown" });
    expect(result!.facts.not_assessed).toEqual({
      listener_exposure: expect.stringMatching(/^the socket table could not be read \(netstat is not available/),
    });
    expect(new Set(host.calls.connect.map((c) => c.split(":")[0]))).toEqual(new Set(["127.0.0.1"]));
  });

  const hostScope = { mode: "host" as const, hosts: ["127.0.0.1"], given: [] };

  it("host mode reads every listening port from /proc/net/tcp: loopback-bound databases are not exposure findings", async () => {
    const table = readFileSync(new URL("./fixtures/linux-proc-net-tcp.txt", import.meta.url), "utf8");
    const table6 = readFileSync(new URL("./fixtures/linux-proc-net-tcp6.txt", import.meta.url), "utf8");
    const host = createFakeHost({
      platform: "linux",
      files: { "/proc/net/tcp": table, "/proc/net/tcp6": table6 },
      net: { open: ["127.0.0.1:6379", "127.0.0.1:5432", "127.0.0.1:3306", "127.0.0.1:2024"] },
    });
    const [result] = await runPhases({ host, phases: [portsPhase], scope: hostScope, options: { ephiPaths: [] } });
    // Redis, PostgreSQL and MySQL listen on 127.0.0.1 (and ::1) only: nothing on the segment can reach them.
    expect(result!.findings).toEqual([]);
    expect(result!.facts).toMatchObject({
      listener_source: "proc_net_tcp",
      listening_ports: 9,
      listening_beyond_loopback: 1,
    });
    expect((result!.facts.listening as unknown[])[0]).toEqual({
      port: 1883,
      service: "tcp/1883",
      addresses: ["127.0.0.1"],
      exposure: "loopback",
    });
    expect(result!.facts.listening).toContainEqual({
      port: 2024,
      service: "tcp/2024",
      addresses: ["0.0.0.0"],
      exposure: "network",
    });
    // Every listening port was probed through loopback (the tls phase reads what answered), nothing else.
    expect(host.calls.connect.sort()).toEqual(
      [1883, 2024, 3306, 4222, 4369, 5432, 5672, 6379, 25672].map((p) => `127.0.0.1:${p}`).sort(),
    );
    expect(openPortsOf({ status: "ok", facts: result!.facts, findings: [] })).toHaveLength(4);
  });

  it("host mode: the same database bound to every interface is a finding naming the bind address", async () => {
    const table = readFileSync(new URL("./fixtures/linux-proc-net-tcp.txt", import.meta.url), "utf8").replace(
      "0100007F:1538",
      "00000000:1538",
    );
    const host = createFakeHost({ platform: "linux", files: { "/proc/net/tcp": table } });
    const [result] = await runPhases({ host, phases: [portsPhase], scope: hostScope, options: { ephiPaths: [] } });
    expect(result!.findings.map((f) => [f.id, f.severity, f.title])).toEqual([
      [
        "ports.risky_service:127.0.0.1:5432",
        "high",
        "PostgreSQL (TCP 5432) listens on all network interfaces of this machine",
      ],
    ]);
    expect(result!.findings[0]?.evidence).toEqual({
      port: 5432,
      service: "PostgreSQL",
      bind_addresses: ["0.0.0.0"],
      exposure: "network",
      source: "socket_table",
      // No firewall could be read here: whether the segment reaches it is not claimed either way.
      reachable_from_segment: "unknown",
      confidence: "low",
      firewall: { tool: "ufw", state: "unknown" },
    });
  });

  it("host mode: the host firewall decides whether a database bound to every interface is reachable", async () => {
    // MySQL, PostgreSQL and Redis all bound to 0.0.0.0, behind the captured default-drop rule set that accepts 3306
    // from anywhere, 5432 from 192.168.50.0/24 only and 6379 not at all.
    const table = readFileSync(new URL("./fixtures/linux-proc-net-tcp.txt", import.meta.url), "utf8")
      .replace("0100007F:18EB", "00000000:18EB")
      .replace("0100007F:1538 00000000", "00000000:1538 00000000")
      .replace("0100007F:0CEA", "00000000:0CEA");
    const nft = readFileSync(new URL("../segmentation/fixtures/linux-nft-json-hardened.json", import.meta.url), "utf8");
    const host = createFakeHost({
      platform: "linux",
      files: { "/proc/net/tcp": table },
      commands: { "nft -j list ruleset": nft },
    });
    const [result] = await runPhases({ host, phases: [portsPhase], scope: hostScope, options: { ephiPaths: [] } });
    const byPort = new Map(result!.findings.map((f) => [(f.evidence as { port: number }).port, f]));
    expect(byPort.get(3306)).toMatchObject({
      severity: "high",
      evidence: {
        reachable_from_segment: true,
        confidence: "high",
        firewall: { tool: "nftables", default_input: "drop" },
      },
    });
    expect(byPort.get(5432)).toMatchObject({
      severity: "high",
      title:
        "PostgreSQL (TCP 5432) listens on all network interfaces of this machine; the host firewall admits some addresses",
      evidence: { reachable_from_segment: "restricted", confidence: "high" },
    });
    expect(byPort.get(6379)).toMatchObject({
      id: "ports.risky_service:127.0.0.1:6379",
      severity: "low",
      title:
        "Redis (TCP 6379) listens on all network interfaces of this machine; the host firewall drops connections to it",
      evidence: { reachable_from_segment: false, confidence: "high" },
    });
  });

  it("targets: a loopback target is this machine, judged by its socket table (no loopback 'exposure')", async () => {
    // This machine's table (MySQL, PostgreSQL, Redis on 127.0.0.1) with PostgreSQL moved to every interface.
    const table = readFileSync(new URL("./fixtures/linux-proc-net-tcp.txt", import.meta.url), "utf8").replace(
      "0100007F:1538",
      "00000000:1538",
    );
    const host = createFakeHost({
      platform: "linux",
      files: {
        "/proc/net/tcp": table,
        "/etc/redis/redis.conf": readFileSync(new URL("./fixtures/linux-redis.conf", import.meta.url), "utf8"),
      },
      net: { open: ["127.0.0.1:3306", "127.0.0.1:5432", "127.0.0.1:6379", "127.0.1.9:2575"] },
    });
    const scope = { mode: "targets" as const, hosts: ["127.0.0.1", "127.0.1.9"], given: ["127.0.0.1", "127.0.1.9"] };
    const [result] = await runPhases({ host, phases: [portsPhase], scope, options: { ephiPaths: [] } });
    // MySQL and Redis bound to loopback only raise nothing; PostgreSQL on every interface does, naming the bind; a
    // port the table does not show on that address (127.0.1.9, another listener) keeps the connect probe's finding.
    // This machine being in scope, who may log in to its Redis is read too (low: loopback only).
    expect(result!.findings.map((f) => [f.id, f.title])).toEqual([
      ["ports.risky_service:127.0.0.1:5432", "PostgreSQL (TCP 5432) listens on all network interfaces of this machine"],
      ["ports.risky_service:127.0.1.9:2575", "hl7-mllp (TCP 2575) is open on 127.0.1.9"],
      ["ports.redis_without_password:/etc/redis/redis.conf", "Redis (TCP 6379) needs no password"],
    ]);
    expect(openPortsOf({ status: "ok", facts: result!.facts, findings: [] })).toEqual([
      { host: "127.0.0.1", port: 3306, service: "MySQL", exposure: "loopback" },
      { host: "127.0.0.1", port: 5432, service: "PostgreSQL", exposure: "network" },
      { host: "127.0.0.1", port: 6379, service: "Redis", exposure: "loopback" },
      { host: "127.0.1.9", port: 2575, service: "hl7-mllp" },
    ]);
  });

  it("host mode on Windows and macOS reads netstat: services on all interfaces and on one LAN address", async () => {
    const win = createFakeHost({
      platform: "win32",
      commands: {
        "netstat -ano": readFileSync(new URL("./fixtures/win32-netstat-anop-tcp.txt", import.meta.url), "utf8"),
      },
    });
    const [w] = await runPhases({ host: win, phases: [portsPhase], scope: hostScope, options: { ephiPaths: [] } });
    expect(w!.findings.map((f) => f.title)).toEqual([
      "netbios-ssn (TCP 139) listens on 192.168.166.21 of this machine",
      "smb (TCP 445) listens on all network interfaces of this machine",
      "Microsoft SQL Server (TCP 1433) listens on all network interfaces of this machine",
      "rdp (TCP 3389) listens on all network interfaces of this machine",
    ]);
    // The port bound to a LAN address only is never probed: host mode touches loopback alone.
    expect(win.calls.connect.every((c) => c.startsWith("127.0.0.1:"))).toBe(true);
    const mac = createFakeHost({
      platform: "darwin",
      commands: {
        "netstat -anv -p tcp": readFileSync(
          new URL("./fixtures/darwin-netstat-anv-listen.txt", import.meta.url),
          "utf8",
        ),
      },
    });
    const [m] = await runPhases({ host: mac, phases: [portsPhase], scope: hostScope, options: { ephiPaths: [] } });
    expect(m!.findings.map((f) => f.id)).toEqual(["ports.risky_service:127.0.0.1:5900"]);
    expect(m!.facts).toMatchObject({ listener_source: "netstat", listening_ports: 16 });
  });

  it("host mode on Linux reads Redis and PostgreSQL authentication from their configuration files, MySQL's from the server", async () => {
    const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
    const host = createFakeHost({
      platform: "linux",
      files: {
        "/proc/net/tcp": fixture("linux-proc-net-tcp.txt"),
        "/etc/redis/redis.conf": fixture("linux-redis.conf"),
        "/etc/postgresql/15/main/pg_hba.conf": `${fixture("linux-pg_hba.conf")}host all all 192.168.50.0/24 trust\n`,
        // Present but owned by the database's account: named as not read, never judged.
        "/var/lib/pgsql/data/pg_hba.conf": { content: "host all all 0.0.0.0/0 trust\n", readable: false },
      },
      // MariaDB listens on 127.0.0.1:3306 in the captured table; its accounts as this machine's server answered.
      commands: {
        [`mariadb --no-defaults -u root --password= --connect-timeout=3 -B -N -e ${MARIADB_ACCOUNTS_QUERY}`]:
          fixture("linux-mariadb-accounts.tsv"),
      },
    });
    const [result] = await runPhases({ host, phases: [portsPhase], scope: hostScope, options: { ephiPaths: [] } });
    expect(result!.findings.map((f) => [f.id, f.severity, f.category])).toEqual([
      ["ports.redis_without_password:/etc/redis/redis.conf", "low", "access_control"],
      ["ports.postgresql_trust_auth:/etc/postgresql/15/main/pg_hba.conf:192.168.50.0/24", "high", "access_control"],
      ["ports.mysql_account_without_password:root@localhost", "medium", "access_control"],
      ["ports.mysql_account_without_password:root@127.0.0.1", "medium", "access_control"],
    ]);
    expect(result!.facts.database_configs).toEqual({
      redis: [{ config: "/etc/redis/redis.conf", port: 6379, bind: ["127.0.0.1", "::1"], authentication: "none" }],
      postgresql: [
        { config: "/etc/postgresql/15/main/pg_hba.conf", entries: 3, trust_local: 2, trust_beyond_local: 1 },
      ],
      mysql: {
        read_via: "mariadb as root through the Unix socket",
        accounts: 4,
        without_password: ["root@localhost", "root@127.0.0.1"],
      },
    });
    expect(result!.facts.not_assessed).toEqual({
      database_configs: "not readable by this run: /var/lib/pgsql/data/pg_hba.conf",
    });
  });
});
