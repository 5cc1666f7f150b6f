import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { exposureOf, listeningPorts, parseDarwinNetstat, parseProcNetTcp, parseWindowsNetstat } from "./listeners.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("socket tables", () => {
  it("reads the LISTEN rows of this Debian machine's /proc/net/tcp, every port, with bind addresses", () => {
    const listeners = parseProcNetTcp(fixture("linux-proc-net-tcp.txt"));
    expect(listeners).toEqual([
      { address: "127.0.0.1", port: 6379 },
      { address: "127.0.0.1", port: 5432 },
      { address: "127.0.0.1", port: 5672 },
      { address: "127.0.0.1", port: 4222 },
      { address: "127.0.0.1", port: 4369 },
      { address: "127.0.0.1", port: 3306 },
      { address: "0.0.0.0", port: 2024 },
      { address: "127.0.0.1", port: 1883 },
      { address: "127.0.0.1", port: 25672 },
    ]);
    // Established and closing rows (state 01, 06) are not listeners.
    expect(fixture("linux-proc-net-tcp.txt")).toMatch(/ 06 /);
  });

  it("reads /proc/net/tcp6: four little-endian words per address", () => {
    expect(parseProcNetTcp(fixture("linux-proc-net-tcp6.txt"))).toEqual([
      { address: "::1", port: 6379 },
      { address: "::1", port: 4369 },
    ]);
    const wildcard = fixture("linux-proc-net-tcp6.txt").replace(
      "00000000000000000000000001000000:18EB",
      "00000000000000000000000000000000:18EB",
    );
    expect(parseProcNetTcp(wildcard)?.[0]).toEqual({ address: "::", port: 6379 });
    // A v4-mapped loopback socket and a link-local one, as the kernel writes them.
    const mapped = fixture("linux-proc-net-tcp6.txt")
      .replace("00000000000000000000000001000000:18EB", "0000000000000000FFFF00000100007F:18EB")
      .replace("00000000000000000000000001000000:1111", "000080FE00000000FF000002FE0000AA:1111");
    expect(parseProcNetTcp(mapped)).toEqual([
      { address: "::ffff:127.0.0.1", port: 6379 },
      { address: "fe80::200:ff:aa00:fe", port: 4369 },
    ]);
    expect(parseProcNetTcp("not a table")).toBeNull();
  });

  it("reads a Mac's netstat -anv: tcp4, tcp6 and dual-stack rows, truncated link-local addresses, pids", () => {
    const listeners = parseDarwinNetstat(fixture("darwin-netstat-anv-listen.txt"))!;
    expect(listeners).toHaveLength(21);
    expect(listeners.slice(0, 2)).toEqual([
      { address: "127.0.0.1", port: 631, pid: 26008 },
      { address: "::1", port: 631, pid: 26008 },
    ]);
    expect(listeners).toContainEqual({ address: "::", port: 3283, pid: 528 });
    expect(listeners).toContainEqual({ address: "0.0.0.0", port: 5900, pid: 1 });
    expect(listeners).toContainEqual({ address: "fe80::aede:48ff:", port: 49159, pid: 77 });
    expect(parseDarwinNetstat("Active Internet connections")).toBeNull();
  });

  it("reads Windows netstat -ano: LISTENING rows with pids, IPv6 in brackets, other states skipped", () => {
    const listeners = parseWindowsNetstat(fixture("win32-netstat-anop-tcp.txt"))!;
    expect(listeners).toHaveLength(31);
    expect(listeners[0]).toEqual({ address: "0.0.0.0", port: 80, pid: 4 });
    expect(listeners).toContainEqual({ address: "127.0.0.1", port: 53, pid: 2616 });
    expect(listeners).toContainEqual({ address: "192.168.166.21", port: 139, pid: 4 });
    expect(listeners.some((l) => l.port === 50482)).toBe(false);
    expect(parseWindowsNetstat(fixture("win32-netstat-na-445.txt"))).toEqual([
      { address: "0.0.0.0", port: 445 },
      { address: "::", port: 445 },
    ]);
    expect(parseWindowsNetstat("Aktive Verbindungen")).toBeNull();
  });
});

describe("exposure by bind address", () => {
  it("loopback is only this machine; wildcards and interface addresses reach the network", () => {
    for (const a of ["127.0.0.1", "127.0.21.5", "::1", "::ffff:127.0.0.1"]) expect(exposureOf(a), a).toBe("loopback");
    for (const a of ["0.0.0.0", "::", "192.168.166.21", "fe80::aede:48ff:"]) expect(exposureOf(a), a).toBe("network");
  });

  it("folds a port's sockets: network-exposed when any of them is bound beyond loopback", () => {
    const ports = listeningPorts(parseDarwinNetstat(fixture("darwin-netstat-anv-listen.txt"))!);
    expect(ports.find((p) => p.port === 631)).toEqual({
      port: 631,
      addresses: ["127.0.0.1", "::1"],
      exposure: "loopback",
    });
    expect(ports.find((p) => p.port === 5900)).toEqual({
      port: 5900,
      addresses: ["0.0.0.0", "::"],
      exposure: "network",
    });
    expect(
      listeningPorts([
        { address: "127.0.0.1", port: 5432 },
        { address: "10.0.0.5", port: 5432 },
      ]),
    ).toEqual([{ port: 5432, addresses: ["10.0.0.5", "127.0.0.1"], exposure: "network" }]);
  });
});
