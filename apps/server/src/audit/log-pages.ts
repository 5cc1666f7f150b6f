import SQLite from "better-sqlite3";
import { auditRecordJson, auditRecordOf } from "../services/audit.js";
import type { AuditEventsTable } from "../store/schema.js";
import type { Store } from "../store/store.js";

/** A logged event as a verifier reads it: its id and what its leaf must be the hash of. */
export interface LoggedRecord {
  readonly id: number;
  /** PostgreSQL: the index the sequencer marked the event with (null: unmarked); absent where no mark is kept. */
  readonly mark?: number | null;
  /** 0x00 then the record rebuilt from the event's stored fields as RFC 8785 JSON: the leaf's hash input. */
  readonly leafInput: string;
}

/** Reads the log's events by id: up to `limit` of those with ids from `fromId` to `lastId`, in id order. */
export interface LogReader {
  read(fromId: number, lastId: number, limit: number): Promise<LoggedRecord[]> | LoggedRecord[];
  close(): void;
}

type Row = Pick<
  AuditEventsTable,
  | "at"
  | "request_id"
  | "actor_key_id"
  | "actor_account_id"
  | "actor_operator"
  | "action"
  | "transport"
  | "resource"
  | "outcome"
  | "status"
  | "code"
  | "salt"
> & { id: number | string; leaf_index: number | string | null };

const PAGE_SQL = `select id, at, request_id, actor_key_id, actor_account_id, actor_operator, action, transport,
  resource, outcome, status, code, salt, leaf_index from audit_events where id >= ? and id <= ? order by id limit ?`;

/**
 * SQLite builds a record's leaf input itself — 0x00 and the canonical JSON (json_object, keys given in sorted order;
 * its string escaping is ECMAScript's JSON.stringify's, which is RFC 8785's: a property test holds the two equal on
 * arbitrary strings). `actor.operator` is there only when set, as auditRecordOf does. Over audit_events as `e`.
 */
export const SQLITE_LEAF_INPUT = `char(0) || json_object(
    'actor', case when e.actor_operator is null
      then json_object('account_id', e.actor_account_id, 'key_id', e.actor_key_id)
      else json_object('account_id', e.actor_account_id, 'key_id', e.actor_key_id, 'operator', e.actor_operator) end,
    'code', e.code, 'operation', e.action, 'outcome', e.outcome, 'request_id', e.request_id, 'resource', e.resource,
    'salt', e.salt, 'status', e.status, 'time', e.at, 'transport', e.transport, 'v', 1)`;

/**
 * The verifier's page on SQLite: the leaf input built by SQLite — two values per row cross into JavaScript instead of
 * fourteen, as arrays, which more than halves the cost of reading the log.
 */
const SQLITE_PAGE_SQL = `select e.id, ${SQLITE_LEAF_INPUT} from audit_events e where e.id >= ? and e.id <= ? order by e.id limit ?`;

/** A reader over its own read-only connection to the embedded store's file (the verifier's threads each open one). */
export function openSqliteLogReader(file: string): LogReader {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  const page = db.prepare(SQLITE_PAGE_SQL).raw(true);
  return {
    read: (fromId, lastId, limit) =>
      (page.all(fromId, lastId, limit) as [number, string][]).map(([id, leafInput]) => ({ id, leafInput })),
    close: () => db.close(),
  };
}

/** A reader through the store, the records rebuilt in JavaScript (PostgreSQL; on SQLite, the reference in tests). */
export function storeLogReader(store: Store): LogReader {
  return {
    async read(fromId, lastId, limit) {
      const rows = await store.hot.all<Row>(store.db, PAGE_SQL, [fromId, lastId, limit]);
      const marked = store.engine === "postgres";
      return rows.map((r) => ({
        id: Number(r.id),
        leafInput: `\0${auditRecordJson(auditRecordOf(r, r.salt))}`,
        ...(marked ? { mark: r.leaf_index === null ? null : Number(r.leaf_index) } : {}),
      }));
    },
    close() {},
  };
}

/** The verifier's reader for a store: the embedded store's own fast reader, else through the store. */
export function logReaderFor(store: Store): LogReader {
  return store.file !== undefined ? openSqliteLogReader(store.file) : storeLogReader(store);
}
