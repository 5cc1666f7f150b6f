import { connect, createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectResult } from "../../host/host.js";
import { createNetProbe } from "../../host/net.js";
import { tcpConnect } from "../../host/net-connect.js";
import { TOP_100_TCP_PORTS } from "./common-ports.js";
import { RttEstimator } from "./rtt.js";
import { scanTcpPorts } from "./scanner.js";

/** Whether anything accepts a TCP connection at host:port (plain node:net, not the code under test). */
const answers = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });

/**
 * 20 loopback addresses on which none of the top-100 ports answers, chosen at run time: a fixed block fails when
 * something else on the machine listens there (another test, a local service bound to 127.0.0.0/8).
 */
async function freeLoopbackBlock(): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const block = `127.${100 + Math.floor(Math.random() * 150)}.${Math.floor(Math.random() * 256)}`;
    const hosts = Array.from({ length: 20 }, (_, i) => `${block}.${i + 1}`);
    const busy = await Promise.all(hosts.flatMap((h) => TOP_100_TCP_PORTS.map((p) => answers(h, p))));
    if (!busy.includes(true)) return block;
  }
  throw new Error("no free block of 20 loopback addresses found");
}

let BLOCK = "";
let LISTENERS: { host: string; port: number }[] = [];
let HOSTS: string[] = [];

describe("scanTcpPorts against loopback listeners", () => {
  const servers: Server[] = [];
  beforeAll(async () => {
    BLOCK = await freeLoopbackBlock();
    LISTENERS = [
      { host: `${BLOCK}.1`, port: 23 },
      { host: `${BLOCK}.1`, port: 3389 },
      { host: `${BLOCK}.7`, port: 5432 },
      { host: `${BLOCK}.20`, port: 445 },
    ];
    HOSTS = Array.from({ length: 20 }, (_, i) => `${BLOCK}.${i + 1}`);
    for (const l of LISTENERS) {
      const s = createServer((c) => c.destroy());
      await new Promise<void>((resolve, reject) => {
        s.once("error", reject);
        s.listen(l.port, l.host, () => resolve());
      });
      servers.push(s);
    }
  });
  afterAll(async () => {
    for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
  });

  // A probe whose engine hands most probes to its helper process (small local window, prewarmed).
  const withHelper = createNetProbe({ helpers: 1, localWindow: 16, prewarm: true });
  afterAll(() => withHelper.engine?.close());

  for (const [name, net, concurrency] of [
    ["the host's probe", createNetProbe(), 64],
    ["the net.Socket probe", { connect: tcpConnect }, 64],
    ["the host's probe and its helper process", withHelper, 512],
  ] as const) {
    it(`finds exactly the open ports with ${name}, in host then port order`, async () => {
      const report = await scanTcpPorts({ net, hosts: HOSTS, ports: TOP_100_TCP_PORTS, concurrency });
      expect(report.open.map((o) => `${o.host}:${o.port}`)).toEqual([
        `${BLOCK}.1:23`,
        `${BLOCK}.1:3389`,
        `${BLOCK}.7:5432`,
        `${BLOCK}.20:445`,
      ]);
      expect(report.closed).toBe(HOSTS.length * 100 - 4);
      expect(report.filtered).toBe(0);
      expect(report.answeringHosts).toHaveLength(20);
      expect(report.peakInFlight).toBeLessThanOrEqual(concurrency);
    });
  }

  it("used the helper process when it was ready", () => {
    // The scan above ran with the helper started at probe creation; if it was up in time it took probes.
    const stats = withHelper.engine?.stats();
    if (stats && stats.helpersReady > 0) expect(stats.helperProbes).toBeGreaterThan(0);
    expect(stats?.requeued ?? 0).toBe(0);
  });
});

/** A scripted network: answers per host:port, with a delay, counting sockets in flight. */
function scriptedNet(answer: (host: string, port: number, attempt: number) => ConnectResult & { delayMs?: number }) {
  const attempts = new Map<string, number>();
  let inFlight = 0;
  let peak = 0;
  return {
    peak: () => peak,
    attempts,
    connect: async (host: string, port: number, timeoutMs: number): Promise<ConnectResult> => {
      const key = `${host}:${port}`;
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      inFlight++;
      peak = Math.max(peak, inFlight);
      const a = answer(host, port, n);
      await new Promise((r) => setTimeout(r, Math.min(a.delayMs ?? 0, timeoutMs)));
      inFlight--;
      const { delayMs = 0, ...result } = a;
      return delayMs > timeoutMs ? { state: "filtered", rttMs: timeoutMs } : result;
    },
  };
}

describe("scanTcpPorts behaviour", () => {
  it("retries a timed-out probe of a host that answers, once, and finds the late open port", async () => {
    const net = scriptedNet((_host, port, attempt) =>
      port === 80 && attempt === 1
        ? { state: "filtered", rttMs: 0 }
        : { state: port === 80 ? "open" : "closed", rttMs: 1 },
    );
    const report = await scanTcpPorts({ net, hosts: ["10.9.9.1"], ports: [22, 80, 443], concurrency: 8 });
    expect(report.open.map((o) => o.port)).toEqual([80]);
    expect(report.retries).toBe(1);
    expect(net.attempts.get("10.9.9.1:80")).toBe(2);
  });

  it("does not retry hosts that never answered (down or fully filtered)", async () => {
    const net = scriptedNet(() => ({ state: "filtered", rttMs: 0 }));
    const report = await scanTcpPorts({
      net,
      hosts: ["10.9.9.2"],
      ports: [22, 80],
      concurrency: 8,
      bounds: { initialMs: 10, minMs: 5, maxMs: 20 },
    });
    expect(report).toMatchObject({ filtered: 2, retries: 0, answeringHosts: [] });
  });

  it("backs off and retries on a local socket shortage instead of reporting the port", async () => {
    let shortages = 3;
    const net = scriptedNet((_h, port) => {
      if (shortages > 0) {
        shortages--;
        return { state: "filtered", rttMs: 0, localFailure: true };
      }
      return { state: port === 443 ? "open" : "closed", rttMs: 1 };
    });
    const report = await scanTcpPorts({ net, hosts: ["10.9.9.3"], ports: [22, 80, 443], concurrency: 64 });
    expect(report.open.map((o) => o.port)).toEqual([443]);
    expect(report.closed).toBe(2);
    expect(report.filtered).toBe(0);
  });

  it("never holds more sockets than its concurrency", async () => {
    const net = scriptedNet(() => ({ state: "closed", rttMs: 1, delayMs: 2 }));
    const hosts = Array.from({ length: 10 }, (_, i) => `10.9.8.${i + 1}`);
    await scanTcpPorts({ net, hosts, ports: TOP_100_TCP_PORTS.slice(0, 20), concurrency: 7 });
    expect(net.peak()).toBe(7);
  });

  it("stops launching probes when cancelled and says so", async () => {
    const controller = new AbortController();
    const net = scriptedNet(() => ({ state: "closed", rttMs: 1, delayMs: 5 }));
    const pending = scanTcpPorts({
      net,
      hosts: ["10.9.9.4"],
      ports: TOP_100_TCP_PORTS,
      concurrency: 2,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 15);
    const report = await pending;
    expect(report.cancelled).toBe(true);
    expect(report.probes).toBeLessThan(100);
  });

  it("answers an empty scope at once", async () => {
    const report = await scanTcpPorts({
      net: scriptedNet(() => ({ state: "open", rttMs: 1 })),
      hosts: [],
      ports: [80],
      concurrency: 4,
    });
    expect(report).toMatchObject({ open: [], probes: 0 });
  });
});

describe("RttEstimator", () => {
  it("starts at the initial timeout, adapts to measured round trips, and stays within bounds", () => {
    const e = new RttEstimator({ initialMs: 1000, minMs: 100, maxMs: 1250 });
    expect(e.timeoutMs()).toBe(1000);
    for (let i = 0; i < 20; i++) e.observe(0.2);
    expect(e.timeoutMs()).toBe(100);
    for (let i = 0; i < 20; i++) e.observe(400);
    expect(e.timeoutMs()).toBeGreaterThan(400);
    for (let i = 0; i < 5; i++) e.observe(5000);
    expect(e.timeoutMs()).toBe(1250);
  });
});
