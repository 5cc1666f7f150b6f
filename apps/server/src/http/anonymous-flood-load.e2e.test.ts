import { monitorEventLoopDelay } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { percentile, startHealthzProber } from "../test-support/healthz-prober.js";
import { type LoopReport, startLoopMonitor } from "../test-support/loop-monitor.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

const BOUND_MS = 50;
const WINDOW_MS = 4_000;
// As in network-upload-load.e2e.test.ts: on a shared 2-core machine the bound must hold in one of a few windows, and when
// other threads kept the server's thread from a CPU more than STARVED_SHARE of every window, its CPU time per
// event-loop turn is checked instead. Parsing one 10 MiB body of nested arrays held the loop 1.7–3.3 s: that fails
// either way.
const MAX_WINDOWS = 3;
const STARVED_SHARE = 0.25;

// One anonymous client in a worker thread of its own (plain JavaScript, run with eval), sending 10 MiB of nested
// JSON arrays to POST /api/a2a one request after another as fast as the server answers: announced with
// Content-Length, or chunked. Reports how each request ended.
const FLOODER = `
const { parentPort, workerData } = require("node:worker_threads");
const { request } = require("node:https");
const { url, ca, chunked } = workerData;
const half = 5 * 1024 * 1024;
const body = Buffer.concat([Buffer.alloc(half, "["), Buffer.alloc(half, "]")]);
const outcomes = {};
let stopped = false;
parentPort.on("message", () => { stopped = true; });
const note = (what) => { outcomes[what] = (outcomes[what] || 0) + 1; };
const once = () => new Promise((resolve) => {
  let settled = false;
  const headers = { "Content-Type": "application/json" };
  if (!chunked) headers["Content-Length"] = String(body.length);
  const req = request(url + "/api/a2a", { method: "POST", headers, ca, agent: false }, (res) => {
    res.resume();
    res.on("end", () => end(String(res.statusCode)));
    res.on("error", () => end(String(res.statusCode)));
  });
  const end = (what) => {
    if (settled) return;
    settled = true;
    note(what);
    req.destroy();
    resolve();
  };
  req.on("error", (err) => end(err.code || "error"));
  // The body goes out as fast as the server takes it, in 64 KiB writes (TCP's back-pressure paces them).
  let at = 0;
  const pump = () => {
    while (!settled && at < body.length) {
      const piece = body.subarray(at, at + 65536);
      at += piece.length;
      if (!req.write(piece)) return req.once("drain", pump);
    }
    if (!settled) req.end();
  };
  pump();
});
(async () => {
  while (!stopped) await once();
  parentPort.postMessage(outcomes);
})();
`;

interface Flooder {
  stop(): Promise<Record<string, number>>;
}

function startFlooder(url: string, ca: string, chunked: boolean): Flooder {
  const worker = new Worker(FLOODER, { eval: true, workerData: { url, ca, chunked } });
  const result = new Promise<Record<string, number>>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    async stop() {
      worker.postMessage("stop");
      const outcomes = await result;
      await worker.terminate();
      return outcomes;
    },
  };
}

interface Window {
  readonly healthzP99: number;
  readonly loopP99: number;
  readonly probes: number;
  readonly answered: number;
  readonly thread: LoopReport | null;
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

async function measureWindow(n: number): Promise<Window> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const prober = startHealthzProber(t.url, t.ca, 5);
  const thread = startLoopMonitor();
  const flooders = [startFlooder(t.url, t.ca, false), startFlooder(t.url, t.ca, true)];
  loop.enable();
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
  loop.disable();
  const report = thread.stop();
  const [latencies, ...outcomes] = await Promise.all([prober.stop(), ...flooders.map((f) => f.stop())]);
  expect(latencies!.filter((ms) => ms < 0)).toEqual([]);
  // What the server answered: 413 (no more than 64 KiB without a key) until the address's limit is spent, then 429.
  const answered = outcomes.reduce((sum, o) => sum + (o["413"] ?? 0) + (o["429"] ?? 0), 0);
  const window = {
    healthzP99: percentile(latencies!, 99),
    loopP99: loop.percentile(99) / 1e6,
    probes: latencies!.length,
    answered,
    thread: report,
  };
  console.info(
    `window ${n}: two anonymous clients sending 10 MiB of nested arrays for ${WINDOW_MS} ms — Content-Length: ` +
      `${JSON.stringify(outcomes[0])}, chunked: ${JSON.stringify(outcomes[1])}; /healthz n=${window.probes} ` +
      `p50 ${percentile(latencies!, 50).toFixed(1)} p99 ${window.healthzP99.toFixed(1)} max ${Math.max(...latencies!).toFixed(1)} ms; ` +
      `event-loop delay p99 ${window.loopP99.toFixed(1)} max ${(loop.max / 1e6).toFixed(1)} ms; ` +
      `RSS ${(process.memoryUsage.rss() / 2 ** 20).toFixed(0)} MiB` +
      (report
        ? `; server thread: CPU per loop turn p99 ${report.cpuPerTurnP99.toFixed(1)} ms, waiting for a CPU ${(report.runQueueShare * 100).toFixed(0)}% of the time`
        : ""),
  );
  return window;
}

const meetsBound = (w: Window) => w.healthzP99 < BOUND_MS && w.loopP99 < BOUND_MS;

describe("two anonymous clients flooding POST /api/a2a with 10 MiB of nested JSON", () => {
  it(`/healthz p99 stays under ${BOUND_MS} ms while they send as fast as they can`, async () => {
    const windows: Window[] = [];
    while (windows.length < MAX_WINDOWS && !windows.some(meetsBound))
      windows.push(await measureWindow(windows.length + 1));
    const best =
      windows.find(meetsBound) ??
      windows.reduce((a, b) => (Math.max(b.healthzP99, b.loopP99) < Math.max(a.healthzP99, a.loopP99) ? b : a));
    const starved = windows.every((w) => w.thread !== null && w.thread.runQueueShare > STARVED_SHARE);
    if (meetsBound(best) || !starved) {
      expect(best.healthzP99).toBeLessThan(BOUND_MS);
      expect(best.loopP99).toBeLessThan(BOUND_MS);
    } else {
      console.warn(
        "other threads kept the server's thread from a CPU in every window: its CPU per loop turn is checked",
      );
      expect(Math.min(...windows.map((w) => w.thread!.cpuPerTurnP99))).toBeLessThan(BOUND_MS);
    }
    expect(best.probes).toBeGreaterThanOrEqual(50); // a p99 of fewer would only be the maximum
    // The clients were answered, many times each second: refused cheaply, not served slowly.
    expect(best.answered).toBeGreaterThan(20);
  }, 120_000);
});
