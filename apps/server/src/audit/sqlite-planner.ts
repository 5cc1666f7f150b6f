import SQLite from "better-sqlite3";
import { type PlannedRun, planRun, type WaitingRecord } from "./sequencer-run.js";
import { SQLITE_LEAF_INPUT } from "./sqlite-log-reader.js";

/** Plans sequencer runs over its own read-only connection to the embedded store's file. */
export interface SqlitePlanner {
  /** The next run (at most `maxBatch` events) from one snapshot of the log; null when nothing waits. */
  plan(maxBatch: number): PlannedRun | null;
  close(): void;
}

/**
 * The planning half of a sequencer run on the embedded store: read the log's state and the events above the last id
 * sequenced (each record's canonical JSON as stored), hash them into leaves and extend the frontier — all from
 * one read snapshot, so the plan is of the log as it was at one moment. The planner thread runs it
 * (sequencer-worker.ts); the serving thread writes what it plans (writePlannedRun).
 */
export function openSqlitePlanner(file: string): SqlitePlanner {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  const state = db.prepare("select size, frontier, sequenced_id from audit_log where id = 1").raw(true);
  const waiting = db
    .prepare(`select e.id, ${SQLITE_LEAF_INPUT} from audit_records e where e.id > ? order by e.id limit ?`)
    .raw(true);
  const plan = db.transaction((maxBatch: number): PlannedRun | null => {
    const row = state.get() as [number, string, number] | undefined;
    if (!row) return null;
    const [size, frontier, sequencedId] = row;
    const records: WaitingRecord[] = (waiting.all(sequencedId, maxBatch) as [number, string][]).map(
      ([id, leafInput]) => ({ id, leafInput }),
    );
    return records.length === 0 ? null : planRun({ size, frontier, sequencedId }, records);
  });
  return { plan, close: () => db.close() };
}
