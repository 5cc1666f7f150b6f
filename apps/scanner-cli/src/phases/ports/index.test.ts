import { readFileSync } from "node:fs";
import { PhaseResultSchema } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { createFakeHost } from "../../host/fake-host.js";
import { runPhases } from "../../runner/run-phases.js";
import { portsPhase } from "./index.js";
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
    });
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

  it("host mode on Linux reads Redis and PostgreSQL authentication from their configuration files", async () => {
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
    });
    const [result] = await runPhases({ host, phases: [portsPhase], scope: hostScope, options: { ephiPaths: [] } });
    expect(result!.findings.map((f) => [f.id, f.severity, f.category])).toEqual([
      ["ports.redis_without_password:/etc/redis/redis.conf", "low", "access_control"],
      ["ports.postgresql_trust_auth:/etc/postgresql/15/main/pg_hba.conf:192.168.50.0/24", "high", "access_control"],
    ]);
    expect(result!.facts.database_configs).toEqual({
      redis: [{ config: "/etc/redis/redis.conf", port: 6379, bind: ["127.0.0.1", "::1"], authentication: "none" }],
      postgresql: [
        { config: "/etc/postgresql/15/main/pg_hba.conf", entries: 3, trust_local: 2, trust_beyond_local: 1 },
      ],
    });
    expect(result!.facts.not_assessed).toEqual({
      database_configs: "not readable by this run: /var/lib/pgsql/data/pg_hba.conf",
    });
  });
});
