import { Worker } from "node:worker_threads";

// Plain JavaScript run with `eval` in a worker thread (no TypeScript loader there): its own event loop sends the
// probes on time even while the server's loop, in this thread, is busy, so a stalled server shows as latency.
const PROBER = `
const { parentPort, workerData } = require("node:worker_threads");
const { Agent, request } = require("node:https");
const { url, ca, intervalMs } = workerData;
const agent = new Agent({ keepAlive: true, ca, maxSockets: 4 });
const latencies = [];
let stopped = false;
parentPort.on("message", () => { stopped = true; });
const probe = () => new Promise((resolve) => {
  const started = performance.now();
  const req = request(url + "/healthz", { agent, ca }, (res) => {
    res.resume();
    res.on("end", () => { latencies.push(res.statusCode === 200 ? performance.now() - started : -1); resolve(); });
  });
  req.on("error", () => { latencies.push(-1); resolve(); });
  req.end();
});
(async () => {
  while (!stopped) {
    await probe();
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  agent.destroy();
  parentPort.postMessage(latencies);
})();
`;

export interface HealthzProber {
  /** Stops probing; resolves with every probe's latency in ms (-1 for a failed probe). */
  stop(): Promise<number[]>;
}

/** Probes GET /healthz of the server at `url` from a worker thread, one request at a time, `intervalMs` apart. */
export function startHealthzProber(url: string, ca: string, intervalMs = 10): HealthzProber {
  const worker = new Worker(PROBER, { eval: true, workerData: { url, ca, intervalMs } });
  const result = new Promise<number[]>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    async stop() {
      worker.postMessage("stop");
      const latencies = await result;
      await worker.terminate();
      return latencies;
    },
  };
}

/** The p-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}
