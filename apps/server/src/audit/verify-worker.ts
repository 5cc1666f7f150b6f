// A worker thread of `hcs-server audit verify` on the embedded store: verifies one range of the log over its own
// read-only connection to the database file, so that reading and hashing use both cores (verify-log.ts).
import { parentPort, workerData } from "node:worker_threads";
import SQLite from "better-sqlite3";
import { SQLITE_PAGE_SQL, type SqliteLeafRow, sqliteLeafOf } from "./log-pages.js";
import { type RangeTask, verifyRange } from "./verify-range.js";

const { file, task } = workerData as { file: string; task: RangeTask };
const db = new SQLite(file, { readonly: true, fileMustExist: true });
try {
  const page = db.prepare(SQLITE_PAGE_SQL);
  const result = await verifyRange(
    (from, limit) => (page.all(from, limit) as SqliteLeafRow[]).map(sqliteLeafOf),
    task,
    (end) => parentPort!.postMessage({ progress: end }),
  );
  parentPort!.postMessage({ result });
} finally {
  db.close();
}
