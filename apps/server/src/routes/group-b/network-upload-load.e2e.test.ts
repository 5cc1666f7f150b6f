import { monitorEventLoopDelay } from "node:perf_hooks";
import { SCAN_UPLOAD_LIMITS } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadHeaders } from "../../test-support/agent-client.js";
import { enrolledPractice, type TestAgent } from "../../test-support/enrolled-practice.js";
import { percentile, startHealthzProber } from "../../test-support/healthz-prober.js";
import { type LoopReport, startLoopMonitor } from "../../test-support/loop-monitor.js";
import { maximumScanDocument } from "../../test-support/scan-documents.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

const NPI = "1234567893";
const BOUND_MS = 50;
// Enough for ~100 probes per window (the rate limit of unauthenticated Group B callers, 60/min, allows 3 windows).
const UPLOADS_PER_WINDOW = 15;
// A shared 2-core machine running other suites can stall this process for tens of milliseconds at any time: the
// bound must hold in one of a few measurement windows. When in every window other processes kept the server's
// thread waiting for a CPU more than STARVED_SHARE of the time, wall-clock latency says more about the machine than
// about this code, and the bound is checked on the thread's own CPU time per event-loop turn instead. Code that
// blocks the loop for each upload (the unpaced upload did, ~200 ms for this document) fails either way.
const MAX_WINDOWS = 3;
const STARVED_SHARE = 0.25;

let t: TestServer;
let agents: TestAgent[];

beforeAll(async () => {
  t = await startTestServer();
  const practice = await enrolledPractice(t, NPI, 2);
  // Two hosts of the practice take turns, so every upload replaces a host's whole assessment (updates, not inserts).
  agents = [await practice.enrol("load-01"), await practice.enrol("load-02")];
});
afterAll(async () => {
  await t?.close();
});

/** Signed maximum-size uploads, made before the clock starts so that only the server's work is measured. */
function maximumUploads(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const agent = agents[i % agents.length]!;
    const doc = maximumScanDocument(agent.agentId, agent.hostname);
    const body = JSON.stringify(doc);
    return { body, headers: uploadHeaders(agent.agentId, doc.scan_id, body, agent.privateKey) };
  });
}

async function sendAll(uploads: ReturnType<typeof maximumUploads>): Promise<void> {
  for (const u of uploads) {
    const res = await t.request("/v1/a2a/network/results", {
      method: "POST",
      headers: u.headers,
      body: u.body,
      timeoutMs: 60_000,
    });
    expect(res.status, res.text).toBe(201);
  }
}

interface Window {
  readonly healthzP99: number;
  readonly loopP99: number;
  readonly probes: number;
  readonly thread: LoopReport | null;
}

/** Maximum-size uploads back to back while /healthz is probed from another thread; the latencies seen. */
async function measureWindow(n: number): Promise<Window> {
  const uploads = maximumUploads(UPLOADS_PER_WINDOW);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const prober = startHealthzProber(t.url, t.ca, 5);
  const thread = startLoopMonitor();
  loop.enable();
  const started = performance.now();
  await sendAll(uploads);
  const elapsedMs = performance.now() - started;
  loop.disable();
  const report = thread.stop();
  const latencies = await prober.stop();
  expect(latencies.filter((ms) => ms < 0)).toEqual([]);
  const window = {
    healthzP99: percentile(latencies, 99),
    loopP99: loop.percentile(99) / 1e6,
    probes: latencies.length,
    thread: report,
  };
  console.info(
    `window ${n}: ${UPLOADS_PER_WINDOW} uploads of ${Buffer.byteLength(uploads[0]!.body)} bytes / ` +
      `${SCAN_UPLOAD_LIMITS.findings_per_upload} findings in ${elapsedMs.toFixed(0)} ms; /healthz n=${window.probes} ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} p99 ${window.healthzP99.toFixed(1)} max ${Math.max(...latencies).toFixed(1)} ms; ` +
      `event-loop delay p99 ${window.loopP99.toFixed(1)} max ${(loop.max / 1e6).toFixed(1)} ms` +
      (report
        ? `; server thread: CPU per loop turn p99 ${report.cpuPerTurnP99.toFixed(1)} ms, waiting for a CPU ${(report.runQueueShare * 100).toFixed(0)}% of the time`
        : ""),
  );
  return window;
}

const meetsBound = (w: Window) => w.healthzP99 < BOUND_MS && w.loopP99 < BOUND_MS;

describe("event-loop responsiveness under scan uploads", () => {
  it(`/healthz p99 stays under ${BOUND_MS} ms while maximum-size uploads run back to back`, async () => {
    await sendAll(maximumUploads(agents.length)); // warm-up: first parses, statements compiled
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
        "other processes kept the server's thread from a CPU in every window: its CPU per loop turn is checked",
      );
      expect(Math.min(...windows.map((w) => w.thread!.cpuPerTurnP99))).toBeLessThan(BOUND_MS);
    }
    expect(best.probes).toBeGreaterThanOrEqual(50); // a p99 of fewer would only be the maximum
  }, 180_000);
});
