import { setFlagsFromString } from "node:v8";

/**
 * How far V8 lets the old generation grow past what the last full collection kept, as a percentage. V8 picks a
 * factor between 1.1 and 4 from how fast it collects against how fast the program allocates; on a busy two-core
 * machine it picks the top of that range, and under bench/grade-lookup's load the serving thread's old generation
 * then grew to 94–153 MiB with 38–60 MiB in use, most of the difference between the process's quiet and its
 * worst peaks (docs/performance.md#memory). 2× bounds that. It was 1.5×, which put about half
 * of the server's processes into a state where every scavenge promoted ~1.7 MB and the old generation was collected
 * every ~200 ms, with V8's helper threads marking beside the serving thread: 20–30 % fewer lookups per second and a p99
 * of 16–21 ms instead of 6–9, for no lower peak (8 of 8 processes fast at 2× and 3×, ~half slow at 1.5×, peaks
 * 176–182 MiB either way).
 */
export const HEAP_GROWING_PERCENT = 100;

/**
 * The V8 flag setting HEAP_GROWING_PERCENT, or null when the operator set a growth of their own on the command line
 * or in NODE_OPTIONS (theirs stands).
 */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | null {
  const given = [...execArgv, ...(nodeOptions ?? "").split(/\s+/)];
  if (given.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return null;
  return `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/**
 * Bounds the old generation's growth in this process (every isolate: the flag is read at each full collection, so
 * setting it after start-up takes effect, and worker threads started later share it).
 */
export function boundHeapGrowth(execArgv: readonly string[], nodeOptions: string | undefined): void {
  const flag = heapGrowthFlag(execArgv, nodeOptions);
  if (flag) setFlagsFromString(flag);
}
