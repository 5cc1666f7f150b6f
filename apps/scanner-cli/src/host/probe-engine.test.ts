import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNetProbe } from "./net.js";
import { createProbeEngine, type ProbeEngine } from "./probe-engine.js";
import { SOCKET_REUSE } from "./tcp-wrap.js";
import { blackhole, closeServer, openDescriptors, openPort } from "./test-support/loopback.js";

// Loopback only: 127.0.5.0/24 for these tests. 127.0.5.1 listens on `open`, 127.0.5.2 hides a blackhole (a full
// accept queue: SYNs dropped, so probes time out), nothing listens on 127.0.5.3 (refused: closed).
const OPEN_HOST = "127.0.5.1";
const HOLE_HOST = "127.0.5.2";
const CLOSED_HOST = "127.0.5.3";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Slack for timing assertions on a loaded 2-core CI machine. */
const SLACK_MS = 250;

async function helperReady(engine: ProbeEngine): Promise<void> {
  for (let i = 0; i < 400 && engine.stats().helpersReady === 0; i++) await sleep(25);
  expect(engine.stats().helpersReady).toBe(1);
}

describe("probe engine (loopback)", () => {
  let server: Server;
  let port = 0;
  let hole: { port: number; close(): void };
  const engines: ProbeEngine[] = [];
  const engine = (options: Parameters<typeof createProbeEngine>[0]) => {
    const e = createProbeEngine(options);
    if (e === null) throw new Error("libuv's TCP handle is not usable on this Node");
    engines.push(e);
    return e;
  };
  beforeAll(async () => {
    ({ server, port } = await openPort(OPEN_HOST));
    hole = await blackhole(HOLE_HOST);
  });
  afterAll(async () => {
    for (const e of engines) e.close();
    hole.close();
    await closeServer(server);
  });

  for (const reuseSockets of [true, false]) {
    it(`tells open, closed and filtered apart in this process (socket reuse ${reuseSockets ? "on" : "off"})`, async () => {
      const e = engine({ helpers: 0, reuseSockets });
      expect((await e.connect(OPEN_HOST, port, 1000)).state).toBe("open");
      for (let i = 0; i < 5; i++) expect((await e.connect(CLOSED_HOST, port, 1000)).state).toBe("closed");
      // A refused socket connected again still finds the open port.
      expect((await e.connect(OPEN_HOST, port, 1000)).state).toBe("open");
      const filtered = await e.connect(HOLE_HOST, hole.port, 150);
      expect(filtered.state).toBe("filtered");
      expect(filtered.localFailure).toBeUndefined();
      expect(filtered.rttMs).toBeGreaterThanOrEqual(150);
      expect(e.stats().reusedSockets > 0).toBe(reuseSockets && SOCKET_REUSE);
    });
  }

  it.runIf(SOCKET_REUSE)("keeps reusing refused sockets after an address no socket can take", async () => {
    const e = engine({ helpers: 0 });
    for (let i = 0; i < 3; i++) expect((await e.connect(CLOSED_HOST, port, 1000)).state).toBe("closed");
    expect((await e.connect("not-an-address.invalid", port, 1000)).state).toBe("filtered");
    const reused = e.stats().reusedSockets;
    expect((await e.connect(CLOSED_HOST, port, 1000)).state).toBe("closed");
    expect((await e.connect(CLOSED_HOST, port, 1000)).state).toBe("closed");
    expect(e.stats().reusedSockets).toBeGreaterThan(reused);
  });

  it("times every probe out from one sweeping timer, within a sweep of its deadline", async () => {
    const e = engine({ helpers: 0, sweepMs: 10 });
    const started = performance.now();
    const timeouts = Array.from({ length: 40 }, (_, i) => 100 + i * 5);
    const results = await Promise.all(timeouts.map((t) => e.connect(HOLE_HOST, hole.port, t)));
    results.forEach((r, i) => {
      expect(r.state).toBe("filtered");
      expect(r.rttMs).toBeGreaterThanOrEqual(timeouts[i]!);
      expect(r.rttMs).toBeLessThan(timeouts[i]! + 10 + SLACK_MS);
    });
    // In parallel, not one after the other.
    expect(performance.now() - started).toBeLessThan(295 + 10 + SLACK_MS);
  });

  it("treats a timeout that is not a positive number as already due", async () => {
    const e = engine({ helpers: 0 });
    for (const t of [Number.NaN, -5, 0]) expect((await e.connect(HOLE_HOST, hole.port, t)).state).toBe("filtered");
  });

  it("reads an answer that arrived while the loop was busy before calling the probe filtered", async () => {
    const e = engine({ helpers: 0, sweepMs: 5 });
    const pending = e.connect(CLOSED_HOST, port, 20);
    const until = performance.now() + 80;
    while (performance.now() < until) {
      // Busy: the refusal is in the kernel long before this loop sees its deadline pass.
    }
    expect((await pending).state).toBe("closed");
  });

  it("answers every probe of an aborted signal at once and leaves the others to their timeouts", async () => {
    const e = engine({ helpers: 0 });
    const controller = new AbortController();
    const cancelled = Array.from({ length: 10 }, () => e.connect(HOLE_HOST, hole.port, 5000, controller.signal));
    const other = e.connect(HOLE_HOST, hole.port, 300);
    await sleep(50);
    const abortedAt = performance.now();
    controller.abort();
    for (const r of await Promise.all(cancelled)) expect(r.state).toBe("filtered");
    expect(performance.now() - abortedAt).toBeLessThan(SLACK_MS);
    expect((await other).rttMs).toBeGreaterThanOrEqual(300);
    expect(await e.connect(OPEN_HOST, port, 1000, controller.signal)).toEqual({ state: "filtered", rttMs: 0 });
  });

  it.runIf(process.platform === "linux")("holds no socket once idle", async () => {
    const e = engine({ helpers: 0, sweepMs: 5 });
    const before = (await openDescriptors())!;
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => e.connect(CLOSED_HOST, 1 + i, 1000)));
    expect(results.every((r) => r.state === "closed")).toBe(true);
    await sleep(50);
    expect(await openDescriptors()).toBeLessThanOrEqual(before);
  });

  it("keeps every probe on net.Socket, with the same answers, where libuv's TCP handle is not usable", async () => {
    const net = createNetProbe({ loadBinding: () => null });
    expect(net.engine).toBeNull();
    expect((await net.connect(OPEN_HOST, port, 1000)).state).toBe("open");
    expect((await net.connect(CLOSED_HOST, port, 1000)).state).toBe("closed");
    const filtered = await net.connect(HOLE_HOST, hole.port, 150);
    expect(filtered.state).toBe("filtered");
    // Node's timers run on the event loop's cached millisecond clock, which can trail performance.now() by up to a
    // millisecond when the probe starts: a 150 ms timer has been seen to end 149.7 ms after the start was read.
    expect(filtered.rttMs).toBeGreaterThanOrEqual(149);
  });

  it("probes in this process when the helper's Node has no usable TCP handle, and does not restart it", async () => {
    // The real helper entry, started in a Node whose process.binding throws (as a future Node's might).
    const dir = mkdtempSync(join(tmpdir(), "hcs-helper-"));
    const tsxApi = join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/esm/api/index.mjs");
    const entry = join(dir, "helper-without-binding.mjs");
    writeFileSync(
      entry,
      `const { register } = await import(${JSON.stringify(pathToFileURL(tsxApi).href)});
register();
process.binding = () => { throw new Error("No such module: tcp_wrap"); };
await import(${JSON.stringify(new URL("./probe-helper/main.ts", import.meta.url).href)});
`,
    );
    try {
      const e = engine({ helpers: 1, localWindow: 1, prewarm: true, helperEntry: entry });
      for (let i = 0; i < 200 && e.stats().helperError === null; i++) await sleep(25);
      expect(e.stats().helperError).toMatch(/^helper cannot probe: .*tcp_wrap/);
      const results = await Promise.all(Array.from({ length: 20 }, () => e.connect(CLOSED_HOST, port, 1000)));
      expect(results.every((r) => r.state === "closed")).toBe(true);
      expect(e.stats()).toMatchObject({ helpersStarted: 1, helperProbes: 0, localProbes: 20 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe("with a helper process", () => {
    const HOSTS = Array.from({ length: 20 }, (_, i) => `127.0.6.${i + 1}`);
    const PORTS = Array.from({ length: 50 }, (_, i) => 20_000 + i);
    const LISTENERS = ["127.0.6.2:20003", "127.0.6.9:20049", "127.0.6.20:20000"];
    const servers: Server[] = [];
    beforeAll(async () => {
      for (const l of LISTENERS) {
        const [host, p] = l.split(":");
        servers.push((await openPort(host!, Number(p))).server);
      }
    });
    afterAll(async () => {
      for (const s of servers) await closeServer(s);
    });

    it("spreads a burst over itself and the helper, with the same answers", async () => {
      const e = engine({ helpers: 1, localWindow: 8, helperWindow: 128, helperActive: 32, prewarm: true });
      await helperReady(e);
      const targets = PORTS.flatMap((p) => HOSTS.map((h) => [h, p] as const));
      const results = await Promise.all(targets.map(([h, p]) => e.connect(h, p, 2000)));
      const open = targets.filter((_, i) => results[i]!.state === "open").map(([h, p]) => `${h}:${p}`);
      expect(open.sort()).toEqual([...LISTENERS].sort());
      expect(results.filter((r) => r.state === "closed")).toHaveLength(targets.length - LISTENERS.length);
      const stats = e.stats();
      // A burst: the helper takes a full window at once, this process starts the rest.
      expect(stats.helperProbes).toBeGreaterThanOrEqual(128);
      expect(stats.localProbes + stats.helperProbes).toBe(targets.length);
      expect(stats.requeued).toBe(0);
    });

    it("keeps timeouts and cancellation for the probes it hands the helper", async () => {
      const e = engine({ helpers: 1, localWindow: 1, helperWindow: 64, helperActive: 64, prewarm: true });
      await helperReady(e);
      const started = performance.now();
      const timed = await Promise.all(Array.from({ length: 30 }, () => e.connect(HOLE_HOST, hole.port, 150)));
      for (const r of timed) {
        expect(r.state).toBe("filtered");
        expect(r.rttMs).toBeGreaterThanOrEqual(150);
      }
      expect(performance.now() - started).toBeLessThan(150 + 2 * SLACK_MS);
      expect(e.stats().helperProbes).toBeGreaterThan(20);

      const controller = new AbortController();
      const cancelled = Array.from({ length: 30 }, () => e.connect(HOLE_HOST, hole.port, 5000, controller.signal));
      await sleep(50);
      const abortedAt = performance.now();
      controller.abort();
      for (const r of await Promise.all(cancelled)) expect(r.state).toBe("filtered");
      expect(performance.now() - abortedAt).toBeLessThan(SLACK_MS);
      // The helper is still of use afterwards.
      const again = await Promise.all(HOSTS.map((h) => e.connect(h, 20_003, 1000)));
      expect(again.filter((r) => r.state === "open")).toHaveLength(1);
      expect(e.stats().helperError).toBeNull();
    });

    it("makes the probes of a helper that died in this process instead", async () => {
      const e = engine({ helpers: 1, localWindow: 1, helperWindow: 256, helperActive: 256, prewarm: true });
      await helperReady(e);
      const [usage] = await e.helperUsage();
      const targets = PORTS.flatMap((p) => HOSTS.map((h) => [h, p] as const));
      const pending = Promise.all([
        ...Array.from({ length: 20 }, () => e.connect(HOLE_HOST, hole.port, 400)),
        ...targets.map(([h, p]) => e.connect(h, p, 2000)),
      ]);
      await new Promise((r) => setImmediate(r));
      process.kill(usage!.pid, "SIGKILL");
      const results = await pending;
      expect(results.slice(0, 20).every((r) => r.state === "filtered")).toBe(true);
      const open = targets.filter((_, i) => results[20 + i]!.state === "open").map(([h, p]) => `${h}:${p}`);
      expect(open.sort()).toEqual([...LISTENERS].sort());
      expect(e.stats().helperError).toMatch(/exited/);
      expect(e.stats().requeued).toBeGreaterThan(0);
    });
    it.runIf(process.platform !== "win32")("gives up on a helper that stops answering", async () => {
      const e = engine({ helpers: 1, localWindow: 1, helperWindow: 64, helperActive: 64, prewarm: true });
      await helperReady(e);
      const [usage] = await e.helperUsage();
      process.kill(usage!.pid, "SIGSTOP");
      try {
        const started = performance.now();
        const results = await Promise.all(HOSTS.map((h) => e.connect(h, 20_003, 100)));
        // Silent for the longest timeout plus the grace (2 s): its probes are made here, with their own timeouts.
        expect(results.filter((r) => r.state === "open")).toHaveLength(1);
        expect(performance.now() - started).toBeGreaterThan(2_000);
        expect(e.stats()).toMatchObject({ helperError: "helper stopped answering", helpersReady: 0 });
        expect(e.stats().requeued).toBeGreaterThan(0);
      } finally {
        process.kill(usage!.pid, "SIGKILL");
      }
    });
  });
});
