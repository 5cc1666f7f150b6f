// A worker thread of `hcs-server audit verify` on the embedded store: verifies one range of the log over its own
// read-only connection to the database file, so that reading and hashing use both cores (verify-log.ts).
import { parentPort, workerData } from "node:worker_threads";
import { openSqliteLogReader } from "./log-pages.js";
import { type RangeTask, verifyRange } from "./verify-range.js";

const { file, task } = workerData as { file: string; task: RangeTask };
const reader = openSqliteLogReader(file);
try {
  const result = await verifyRange(reader, task, (end) => parentPort!.postMessage({ progress: end }));
  parentPort!.postMessage({ result });
} finally {
  reader.close();
}
