import { readFileSync } from "node:fs";
import { percentile } from "./healthz-prober.js";

export interface LoopReport {
  /** p99 of this thread's CPU time per event-loop turn, ms: how long the code on this thread held the loop. */
  readonly cpuPerTurnP99: number;
  /** The longest this thread's code held the loop in one turn, ms (CPU time): the worst stall. */
  readonly cpuPerTurnMax: number;
  /** Share of the window this thread was ready to run but waited for a CPU taken by other processes. */
  readonly runQueueShare: number;
}

// Linux: this thread's time on a CPU and waiting in the run queue, in ns (/proc/<pid>/task/<tid>/schedstat).
const SCHEDSTAT = "/proc/thread-self/schedstat";
function schedstat(): [cpuNs: number, waitNs: number] | null {
  try {
    const [cpu, wait] = readFileSync(SCHEDSTAT, "utf8").split(" ").map(Number);
    return Number.isFinite(cpu) && Number.isFinite(wait) ? [cpu!, wait!] : null;
  } catch {
    return null;
  }
}

/**
 * Ticks every `intervalMs` on this thread's event loop and records, per turn, the CPU time this thread spent
 * (Linux scheduler statistics). A stall measured in wall time mixes this code's work with time the machine gave
 * to other processes; the CPU time is this code's part alone. Null when the platform has no scheduler statistics.
 */
export function startLoopMonitor(intervalMs = 2): { stop(): LoopReport | null } {
  const first = schedstat();
  if (!first) return { stop: () => null };
  const startedAt = performance.now();
  let last = first;
  const cpuPerTurn: number[] = [];
  const timer = setInterval(() => {
    const now = schedstat();
    if (!now) return;
    cpuPerTurn.push((now[0] - last[0]) / 1e6);
    last = now;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      const end = schedstat() ?? last;
      const wallMs = performance.now() - startedAt;
      return {
        cpuPerTurnP99: percentile(cpuPerTurn, 99),
        cpuPerTurnMax: Math.max(0, ...cpuPerTurn),
        runQueueShare: (end[1] - first[1]) / 1e6 / wallMs,
      };
    },
  };
}
