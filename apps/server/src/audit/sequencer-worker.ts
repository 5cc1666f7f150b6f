// The embedded store's sequencer planner thread (sequencer.ts): reads waiting audit events over its own read-only
// connection, hashes their records into leaves and extends the tree's frontier — the CPU work of sequencing, off
// the thread that serves requests. The serving thread writes the planned runs (its connection is the one writer).
import { parentPort, workerData } from "node:worker_threads";
import { openSqlitePlanner } from "./sqlite-planner.js";

const planner = openSqlitePlanner((workerData as { file: string }).file);
parentPort!.on("message", (m: { id: number; maxBatch: number }) => {
  try {
    const run = planner.plan(m.maxBatch);
    parentPort!.postMessage({ id: m.id, run }, run ? [run.leaves.buffer as ArrayBuffer] : []);
  } catch (err) {
    parentPort!.postMessage({ id: m.id, error: (err as Error).message });
  }
});
parentPort!.on("close", () => planner.close());
