// The embedded store's settlement writer thread (settlement-thread.ts): writes each group of settlements it is sent
// as one transaction over its own connection to the database file, and answers what the store said per call.
import { parentPort, workerData } from "node:worker_threads";
import { isStoreUnavailable } from "../store/availability.js";
import { ON_CONNECTION, sqliteHotSql } from "../store/hot-sql.js";
import { openSqliteWriter, SQLITE_BUSY_TIMEOUT_MS, withStatementCache } from "../store/sqlite-connection.js";
import { type SettlementWrite, type SettlementWritten, writeSettlements } from "./settle-writes.js";
import {
  decodeRequest,
  encodeReply,
  type WorkerReply,
  type WorkerRequest,
  type WorkerResult,
} from "./settlement-wire.js";

// The same connection settings and statement cache as the serving thread's (store.ts), from a module that loads
// neither the query builder nor the migrations.
const db = openSqliteWriter((workerData as { file: string }).file, { fileMustExist: true });
const hot = sqliteHotSql(withStatementCache(db).prepare);
// IMMEDIATE takes the write lock at BEGIN (waiting up to busy_timeout): a deferred transaction that read first could
// not be upgraded once the serving thread committed in between (SQLITE_BUSY_SNAPSHOT, which no wait resolves).
const begin = db.prepare("begin immediate");
const commit = db.prepare("commit");
const rollback = db.prepare("rollback");

/**
 * BEGIN IMMEDIATE within what is left of the group's wait for the write lock. The wait counts from when its oldest
 * call asked, not from when its turn came: a group queued behind one that waited out the whole timeout fails with
 * it instead of waiting as long again (docs/operations.md). Only a group that waited in line pays for resetting the
 * connection's busy timeout; the others begin at once with the connection's own.
 */
function beginWithin(askedAt: number): void {
  const left = askedAt + SQLITE_BUSY_TIMEOUT_MS - Date.now();
  if (left >= SQLITE_BUSY_TIMEOUT_MS - QUEUED_MS) {
    begin.run();
    return;
  }
  db.exec(`pragma busy_timeout = ${Math.max(0, Math.floor(left))}`);
  try {
    begin.run();
  } finally {
    db.exec(`pragma busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  }
}
/** A group that waited longer than this before its turn has its lock wait shortened by what it waited. */
const QUEUED_MS = 50;

/** Writes the group in one transaction; its results, or the error that rolled it back. */
async function writeGroup(writes: readonly SettlementWrite[], askedAt: number): Promise<SettlementWritten[]> {
  beginWithin(askedAt);
  try {
    // The group's transaction is this connection's (opened above): SQLite's hot statements join it (hot-sql.ts).
    const written = await writeSettlements(hot, ON_CONNECTION, writes);
    commit.run();
    return written;
  } catch (err) {
    if (db.inTransaction) rollback.run();
    throw err;
  }
}

function errorOf(err: unknown): WorkerResult {
  const e = err instanceof Error ? err : new Error(String(err));
  const code = (e as { code?: unknown }).code;
  return { error: { message: e.message, code: typeof code === "string" ? code : null } };
}

async function handle(request: WorkerRequest): Promise<WorkerReply> {
  try {
    const written = await writeGroup(request.writes, request.askedAt);
    return { id: request.id, results: written.map((w) => ({ written: w })) };
  } catch (err) {
    // A store that is locked or failing fails every call alike: retrying each alone would wait out the same
    // timeout once per call. Otherwise the transaction rolled back for one call's sake: retry each alone.
    if (request.writes.length === 1 || isStoreUnavailable(err)) {
      const result = errorOf(err);
      return { id: request.id, results: request.writes.map(() => result) };
    }
    const results: WorkerResult[] = [];
    for (const write of request.writes) {
      try {
        results.push({ written: (await writeGroup([write], request.askedAt))[0]! });
      } catch (one) {
        results.push(errorOf(one));
      }
    }
    return { id: request.id, results };
  }
}

// Groups are written one after the other in the order they arrive: the serving side keeps up to two in flight, and
// this connection's transactions must not interleave (writeSettlements awaits between statements). A failure that
// handle did not turn into results is thrown out of the thread: the serving side then fails the calls in flight and
// starts a new thread, rather than waiting for answers that would never come.
let previous: Promise<void> = Promise.resolve();
parentPort!.on("message", (request: string) => {
  previous = previous
    .then(() => handle(decodeRequest(request)))
    .then(
      (reply) => parentPort!.postMessage(encodeReply(reply)),
      (err: unknown) => {
        setImmediate(() => {
          throw err;
        });
      },
    );
});
parentPort!.on("close", () => db.close());
