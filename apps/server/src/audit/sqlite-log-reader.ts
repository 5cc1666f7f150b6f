// The verifier's reader on the embedded store. Imports nothing heavy (no query builder, no schemas): the verifier's
// worker thread, and the sequencer's planner thread, start with it.
import SQLite from "better-sqlite3";
import { gapOf, hashedHere, type LogReader } from "./log-page.js";

/**
 * A record's leaf input on SQLite: 0x00 and the record's canonical JSON as stored (audit_records.record, migrations
 * 024 and 025: the text is what is stored; the view audit_events reads its fields from it). Over audit_records as `e`.
 */
export const SQLITE_LEAF_INPUT = "char(0) || e.record";

/**
 * The verifier's page on SQLite: the leaf input as stored, one string per row and nothing else (`pluck`): ids
 * are unique integers, so a range of n ids that answers n rows holds every one of them, and only a page that comes
 * back short (an event deleted) is read again for its ids.
 */
const SQLITE_PAGE_SQL = `select ${SQLITE_LEAF_INPUT} from audit_records e where e.id >= ? and e.id <= ? order by e.id`;
const SQLITE_IDS_SQL = "select id from audit_records where id >= ? and id <= ? order by id";
const SQLITE_RUN_LEAVES_SQL = "select leaf_hashes from audit_sequence_runs where first_index = ?";

/** How much of the database file a verifier's connection maps (2 GiB: SQLite's default compiled maximum). */
const MMAP_BYTES = 2 ** 31;

/** A reader over its own read-only connection to the embedded store's file (the verifier's threads each open one). */
export function openSqliteLogReader(file: string): LogReader {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  // Pages read through a memory map instead of a read() into SQLite's page cache each: a verify reads every page of
  // the log once, and the syscalls cost ~3 % of its time (docs/performance.md#the-audit-logs-cost). Read-only, and
  // SQLite remaps when the file changes size between read transactions. SQLite caps the size at its compiled maximum.
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  const page = db.prepare(SQLITE_PAGE_SQL).pluck(true);
  const ids = db.prepare(SQLITE_IDS_SQL).pluck(true);
  const runLeaves = db.prepare(SQLITE_RUN_LEAVES_SQL).pluck(true);
  // The last run read: a thread's next piece most often begins in the run its last one ended in (runs and pieces
  // are cut independently), and SQLite reads the whole of a blob to answer any part of it.
  let lastRun: { firstIndex: number; leaves: Uint8Array | null } | null = null;
  return {
    inFlight: 1,
    runLeafHashes(firstIndex, from, length) {
      if (lastRun?.firstIndex !== firstIndex) {
        const value = runLeaves.get(firstIndex);
        // Anything but a blob (null, or a value of another type written over it) holds no leaves.
        lastRun = { firstIndex, leaves: value instanceof Uint8Array ? value : null };
      }
      const leaves = lastRun.leaves;
      return leaves ? { stored: leaves.length, bytes: leaves.subarray(from, from + length) } : null;
    },
    read(fromId, count) {
      const lastId = fromId + count - 1;
      const leafInputs = page.all(fromId, lastId) as string[];
      if (leafInputs.length === count) return hashedHere(leafInputs);
      const { held, nextId } = gapOf(ids.all(fromId, lastId) as number[], fromId);
      return hashedHere(leafInputs.slice(0, held), nextId);
    },
    close: () => db.close(),
  };
}
