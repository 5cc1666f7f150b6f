// bench/scanner-full: the full 12-phase scan of this machine with loopback targets only, run with the packaged
// bundle as clinic IT staff run it. Reports wall time and peak RSS (targets: under 30 s, under 150 MB). Baseline in
// the same run: starting the same bundle for `--version` (process start and bundle load alone).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rssOf } from "../lib/process.js";
import { median } from "../lib/stats.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const bin = join(import.meta.dirname, "..", "..", "apps", "scanner-cli", "dist", "bin.js");
if (!existsSync(bin)) throw new Error("build the scanner first (npm run bench builds everything)");

/**
 * Resident set size of the scanner: its process and its Node child (the port scanner's probe helper), in MiB, from
 * /proc. System commands the phases run (lsblk, apt, …) are not the scanner's memory and are left out.
 */
function treeRssMiB(pid: number): number {
  let total = 0;
  const visit = (p: number) => {
    try {
      const { name, rssMiB } = rssOf(p);
      if (name.startsWith("node")) total += rssMiB;
      for (const tid of readdirSync(`/proc/${p}/task`)) {
        for (const child of readFileSync(`/proc/${p}/task/${tid}/children`, "utf8").split(" ").filter(Boolean))
          visit(Number(child));
      }
    } catch {
      // the process has just exited
    }
  };
  visit(pid);
  return total;
}

/** Runs the bundle, sampling the peak RSS of its process tree from /proc while it runs. */
function measure(args: string[]): Promise<{ ms: number; peakMiB: number; code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [bin, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let peak = 0;
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.resume();
    const sample = () => {
      peak = Math.max(peak, treeRssMiB(child.pid!));
    };
    const timer = setInterval(sample, 20);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearInterval(timer);
      resolve({ ms: performance.now() - t0, peakMiB: peak, code, stdout });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), "hcs-bench-scan-"));
try {
  const base: number[] = [];
  const scans: { ms: number; peakMiB: number; ok: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    base.push((await measure(["--version"])).ms);
    const r = await measure(["scan", "--no-upload", "--json", "--targets", "127.0.0.1", "--config-dir", dir]);
    if (r.code !== 0) throw new Error(`scan exited ${r.code}`);
    const out = JSON.parse(r.stdout) as { phases: { status: string }[] };
    scans.push({ ms: r.ms, peakMiB: r.peakMiB, ok: out.phases.filter((p) => p.status === "ok").length });
  }
  const scanMs = median(scans.map((s) => s.ms));
  console.log(
    `\nfull 12-phase scan of this machine, loopback targets only, bundled scanner, ${ROUNDS} rounds, Node ${process.version}`,
  );
  console.log(`baseline (start + load, --version): median ${median(base).toFixed(0)} ms`);
  console.log(
    `full scan: median ${(scanMs / 1000).toFixed(2)} s (target < 30 s), ${scans[0]!.ok}/12 phases ok; peak RSS ${Math.max(...scans.map((s) => s.peakMiB)).toFixed(0)} MiB with the probe helper process (target < 150); scan/baseline ${(scanMs / median(base)).toFixed(1)}×`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
