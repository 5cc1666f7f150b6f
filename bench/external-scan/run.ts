// bench/external-scan: full scans of the sample practices on loopback through the real API and job worker.
// Baseline in the same run: the external scan engine called directly (no API, no queue, no store). Reports the
// median dispatch→completed latency per practice, the throughput of 50 jobs dispatched at once, and how far
// estimated_duration_ms is from the measured duration once warm.
import { checkFactsOf, createExternalScanIO, runExternalScan } from "../../apps/server/src/external-scan/index.js";
import { startLab } from "../../apps/server/src/lab/lab.js";
import { rssOf } from "../lib/process.js";
import { median } from "../lib/stats.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BURST = 50;

const lab = await startLab({ loopbackPrefix: "127.0.30", workerConcurrency: 8 });

/**
 * Dispatches a scan with the lab's webhook receiver as callback and waits for the signed delivery: completion is
 * observed the way an integrator would, without polling (which the rate limit would throttle during a burst).
 */
async function scanThroughApi(
  npi: string,
): Promise<{ latencyMs: number; estimate: number; durationMs: number; status: string }> {
  const t0 = performance.now();
  const res = await lab.request("/v1/a2a/scans/dispatch", { npi, callback_url: lab.receiver.url });
  if (res.status !== 202) throw new Error(`dispatch ${res.status} ${res.text}`);
  const jobId = res.json.job_id as string;
  for (;;) {
    const delivery = lab.receiver.received.find((d) => d.body.includes(jobId));
    if (delivery) {
      const job = JSON.parse(delivery.body);
      if (!delivery.verified) throw new Error("a delivery failed signature verification");
      const durationMs = Date.parse(job.completed_at) - Date.parse(job.started_at);
      return {
        latencyMs: performance.now() - t0,
        estimate: res.json.estimated_duration_ms,
        durationMs,
        status: job.status,
      };
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

try {
  const io = createExternalScanIO({ dnsServers: [lab.samples.dns], trustedCaPem: [lab.samples.caPem] });
  console.log(
    `\nexternal scan of ${lab.samples.practices.length} sample practices on loopback, ${ROUNDS} rounds each, Node ${process.version}`,
  );
  console.log("practice                        engine alone ms   via API ms (dispatch→signed webhook)   ratio");
  const estimateErrors: number[] = [];
  for (const p of lab.samples.practices) {
    // Warm both paths once (JIT, TLS session setup in the sample sites).
    await runExternalScan({ domain: p.domain, website: p.website }, io, { allowPrivateTargets: true });
    await scanThroughApi(p.npi);
    const engine: number[] = [];
    const viaApi: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      await runExternalScan({ domain: p.domain, website: p.website }, io, { allowPrivateTargets: true });
      engine.push(performance.now() - t0);
      const r = await scanThroughApi(p.npi);
      viaApi.push(r.latencyMs);
      estimateErrors.push((r.estimate - r.durationMs) / r.durationMs);
    }
    console.log(
      `${p.name.slice(0, 30).padEnd(31)} ${median(engine).toFixed(0).padStart(12)}   ${median(viaApi).toFixed(0).padStart(30)}   ${(median(viaApi) / median(engine)).toFixed(2).padStart(6)}`,
    );
  }
  const within = estimateErrors.filter((e) => Math.abs(e) <= 0.5).length;
  console.log(
    `estimated_duration_ms vs measured job duration (warm): median error ${(median(estimateErrors.map(Math.abs)) * 100).toFixed(0)}%, ${within}/${estimateErrors.length} within ±50% (target: within ±50%)`,
  );

  // What the TLS suite enumeration costs, under the same load: the same scans alternating between the real probe
  // and one whose suite offers are refused at once (the app.tls_ciphers check then finds nothing to enumerate).
  const noEnumeration = {
    ...io,
    tls: { ...io.tls, offerSuites: async () => ({ ok: false as const, code: "handshake_failed" as const }) },
  };
  console.log(
    "practice                        with enumeration ms   offers refused at once ms   added ms   handshakes",
  );
  for (const p of lab.samples.practices) {
    const target = { domain: p.domain, website: p.website };
    const withEnum: number[] = [];
    const without: number[] = [];
    let handshakes = 0;
    for (let i = 0; i < ROUNDS; i++) {
      let t = performance.now();
      const result = await runExternalScan(target, io, { allowPrivateTargets: true });
      withEnum.push(performance.now() - t);
      handshakes = Number(checkFactsOf(result, "app.tls_ciphers")?.handshakes ?? 0);
      t = performance.now();
      await runExternalScan(target, noEnumeration, { allowPrivateTargets: true });
      without.push(performance.now() - t);
    }
    console.log(
      `${p.name.slice(0, 30).padEnd(31)} ${median(withEnum).toFixed(0).padStart(16)}   ${median(without).toFixed(0).padStart(25)}   ${(median(withEnum) - median(without)).toFixed(0).padStart(8)}   ${String(handshakes).padStart(10)}`,
    );
  }

  const t0 = performance.now();
  const burst = await Promise.all(
    Array.from({ length: BURST }, (_, i) =>
      scanThroughApi(lab.samples.practices[i % lab.samples.practices.length]!.npi),
    ),
  );
  const wall = performance.now() - t0;
  const failed = burst.filter((b) => b.status !== "completed").length;
  console.log(
    `${BURST} dispatched at once: ${BURST - failed} completed, ${failed} failed in ${(wall / 1000).toFixed(2)} s (${(BURST / (wall / 1000)).toFixed(1)} jobs/s); median latency ${median(burst.map((b) => b.latencyMs)).toFixed(0)} ms; server process RSS ${rssOf(process.pid).rssMiB.toFixed(0)} MiB (bench + server + sample sites in one process)`,
  );
} finally {
  await lab.stop();
}
