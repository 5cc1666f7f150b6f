import type SQLite from "better-sqlite3";
import type { ChangeListener } from "./pg-change-listener.js";
import { postgresRowCache, type RowCache, sqliteRowCache } from "./row-cache.js";

/** What a grade lookup reads of a practice: its name and its latest stored grade, if any (services/grades.ts). */
export interface LatestGradeRow {
  readonly npi: string;
  readonly name: string;
  readonly record: string | null;
  readonly scoring_version: string | null;
  readonly valid_until: string | null;
}

/**
 * The latest grade rows of recently looked-up practices, kept in memory so that a grade lookup does not query the
 * store (docs/performance.md#caches-on-the-hot-path). A change is pushed through, never waited out: every statement
 * that changes what the lookup reads — a grade stored, changed or deleted; a practice renamed, renumbered or deleted
 * — fires a trigger (migration 027), whatever process and code path ran it (a scan's upload, a threat-feed regrade,
 * the operator CLI, an SQL session), as for the key cache (key-cache.ts):
 * - SQLite: the trigger bumps a counter that the first lookup of each event-loop turn reads; a changed one empties
 *   the cache before that lookup, so a change made anywhere holds from the next turn on;
 * - PostgreSQL: the trigger sends a notification that empties the cache in every server process when it arrives, a
 *   few milliseconds after the commit (the writing process included).
 * Whether a row is still current at the time of the lookup (its `valid_until`, the scoring version) is decided per
 * lookup, as for a row just read.
 *
 * Practices that are not found are never cached: a guess is looked up every time, and cannot fill the memory.
 */
export type GradeCache = RowCache<LatestGradeRow>;

/**
 * Most practices kept: beyond it the oldest remembered is dropped. A row holds the stored record, ~1–2 KB, so the
 * cache stays under ~10 MB (the server's memory target is 150 MiB in all, docs/performance.md#memory).
 */
const MAX_PRACTICES = 5_000;

/** The embedded store's grade cache (see GradeCache). */
export function sqliteGradeCache(prepare: (sql: string) => SQLite.Statement, inTransaction: () => boolean): GradeCache {
  return sqliteRowCache({
    maxRows: MAX_PRACTICES,
    epochSql: "select epoch from grade_epoch where id = 1",
    prepare,
    inTransaction,
  });
}

/** The channel migration 027's trigger notifies on PostgreSQL; the payload is the schema whose rows changed. */
export const GRADES_CHANGED_CHANNEL = "hcs_grades_changed";

/**
 * PostgreSQL's grade cache: emptied when migration 027's trigger notifies; nothing is served from memory while the
 * listening connection is down. Saves each turn's lookups a round trip before their settlement.
 */
export function postgresGradeCache(listener: ChangeListener): GradeCache {
  return postgresRowCache({ maxRows: MAX_PRACTICES, listener, channel: GRADES_CHANGED_CHANNEL });
}
