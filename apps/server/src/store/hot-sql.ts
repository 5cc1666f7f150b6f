import type SQLite from "better-sqlite3";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "./schema.js";

export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * What a hot statement runs on. PostgreSQL: a Kysely executor (the pool, or a batch's transaction). SQLite ignores it:
 * its statements run on the store's connection, inside whatever transaction that connection holds, so a writer that
 * has no query builder (a worker thread) passes `ON_CONNECTION`.
 */
export type HotExecutor = Executor | typeof ON_CONNECTION;
export const ON_CONNECTION = null;

/**
 * The few statements on every request's path (key lookup, rate-limit upsert, credit charge, audit insert, grade
 * read) run through this: the same portable SQL text with `?` placeholders on both engines, without the query
 * builder, whose cost per statement was larger than the statement itself on SQLite
 * (docs/performance.md#hot-statements-without-the-query-builder).
 * Everything else goes through Kysely.
 */
export interface HotSql {
  readonly engine: "sqlite" | "postgres";
  /** Rows of the statement (an empty list for statements without RETURNING). */
  all<T>(executor: HotExecutor, text: string, params: readonly unknown[]): Promise<T[]>;
  /**
   * SQLite only: runs an INSERT and answers the rowid of its last row, read from the statement's own result (so no
   * other statement can come between). The rows of one multi-row INSERT into an AUTOINCREMENT table get consecutive
   * rowids ending there.
   */
  insertLastRowid?(text: string, params: readonly unknown[]): number;
}

export type Param = string | number | bigint | Buffer | null;
export const toParam = (v: unknown): Param =>
  v === undefined ? null : typeof v === "boolean" ? (v ? 1 : 0) : (v as Param);

/**
 * SQLite: statements prepared once (`prepare` is the store's statement cache) and run synchronously on the store's
 * single connection. Inside a group-commit batch that connection holds the batch's transaction, so the statements
 * join it; outside, they run on their own.
 * Only hot-path tables are touched this way, and none of those reads depends on another request's uncommitted write.
 */
export function sqliteHotSql(prepare: (sql: string) => SQLite.Statement): HotSql {
  return {
    engine: "sqlite",
    insertLastRowid(text, params) {
      return Number(prepare(text).run(...params.map(toParam)).lastInsertRowid);
    },
    all<T>(_executor: HotExecutor, text: string, params: readonly unknown[]): Promise<T[]> {
      const stmt = prepare(text);
      try {
        const args = params.map(toParam);
        if (stmt.reader) return Promise.resolve(stmt.all(...args) as T[]);
        stmt.run(...args);
        return Promise.resolve([]);
      } catch (err) {
        return Promise.reject(err);
      }
    },
  };
}

/**
 * SQLite: inserts rows like {@link insertRows} and answers their ids in order, from each statement's own last rowid
 * (cheaper than RETURNING, and exact: the rows of one statement take consecutive AUTOINCREMENT ids).
 */
export function insertRowsForIds(
  hot: HotSql,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): number[] {
  if (!hot.insertLastRowid) throw new Error("insertRowsForIds is for SQLite's hot statements");
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    const last = hot.insertLastRowid(insertText(table, columns, chunk.length, []), chunk.flat());
    for (let k = chunk.length - 1; k >= 0; k--) ids.push(last - k);
  }
  return ids;
}

/** Most rows one multi-row insert carries: statement texts (and the statement caches) stay few and small. */
const INSERT_CHUNK = 64;
const insertTexts = new Map<string, string>();

/**
 * Inserts rows (values in `columns` order) with one statement per {@link INSERT_CHUNK} rows instead of one per row:
 * a group commit writes its audit events and ledger rows this way. Rows keep their order (and so their ids). With
 * `returning`, answers those columns of the inserted rows — in no promised order (SQLite does not promise one):
 * return a column that tells them apart.
 */
export async function insertRows<T = never>(
  hot: HotSql,
  executor: HotExecutor,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  returning: readonly string[] = [],
): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    out.push(...(await hot.all<T>(executor, insertText(table, columns, chunk.length, returning), chunk.flat())));
  }
  return out;
}

function insertText(table: string, columns: readonly string[], rows: number, returning: readonly string[]): string {
  const key = `${table}(${columns.join(",")})x${rows}>${returning.join(",")}`;
  let text = insertTexts.get(key);
  if (!text) {
    const tuple = `(${columns.map(() => "?").join(", ")})`;
    text = `insert into ${table} (${columns.join(", ")}) values ${Array.from({ length: rows }, () => tuple).join(", ")}`;
    if (returning.length > 0) text += ` returning ${returning.join(", ")}`;
    insertTexts.set(key, text);
  }
  return text;
}
