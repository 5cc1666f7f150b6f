// A worker thread of `hcs-server audit verify` on the embedded store: takes pieces of the log from the front of the
// queue it shares with the verifying thread (verify-split.ts) and verifies each over its own read-only connection to
// the database file, so that reading and hashing use both cores (verify-log.ts).
import { parentPort, workerData } from "node:worker_threads";
import { openSqliteLogReader } from "./sqlite-log-reader.js";
import { type JournalRun, verifyRange } from "./verify-range.js";
import { type Piece, PieceQueue } from "./verify-split.js";

const { file, journal, pieces, queue } = workerData as {
  file: string;
  journal: JournalRun[];
  pieces: Piece[];
  queue: SharedArrayBuffer;
};
const reader = openSqliteLogReader(file);
const claims = new PieceQueue(queue);
try {
  // The first piece was held back for this thread (unless the verifying thread, done first, took it).
  let piece = claims.takeHeldBack() ? 0 : claims.takeFront();
  for (; piece >= 0; piece = claims.takeFront()) {
    const result = await verifyRange(reader, { ...pieces[piece]!, journal }, (end) =>
      parentPort!.postMessage({ piece, progress: end }),
    );
    parentPort!.postMessage({ piece, result });
  }
} finally {
  reader.close();
}
