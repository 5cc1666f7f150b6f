import { auditRecordJson, auditRecordOf } from "../services/audit.js";
import type { AuditEventsTable } from "../store/schema.js";
import type { Store } from "../store/store.js";

/** One sequenced event as a verifier reads it: its place, its stored leaf hash, and its record's canonical JSON. */
export interface LoggedLeaf {
  readonly id: number;
  readonly leafIndex: number;
  readonly leafHash: string;
  /** The record rebuilt from the event's stored fields, as RFC 8785 JSON (what the leaf hash must be the hash of). */
  readonly recordJson: string;
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
  | "leaf_hash"
> & { id: number | string; leaf_index: number | string };

const PAGE_SQL = `select id, at, request_id, actor_key_id, actor_account_id, actor_operator, action, transport, resource,
  outcome, status, code, salt, leaf_hash, leaf_index from audit_events where leaf_index >= ? order by leaf_index limit ?`;

/**
 * SQLite builds the canonical JSON itself (json_object, keys given in sorted order; its string escaping is
 * ECMAScript's JSON.stringify's, which is RFC 8785's — a property test holds the two equal on arbitrary strings):
 * one string per row crosses into JavaScript instead of thirteen, which halves the cost of reading the log.
 * `actor.operator` is there only when set, as auditRecordOf does.
 */
export const SQLITE_PAGE_SQL = `select id, leaf_index, leaf_hash, json_object(
    'actor', case when actor_operator is null
      then json_object('account_id', actor_account_id, 'key_id', actor_key_id)
      else json_object('account_id', actor_account_id, 'key_id', actor_key_id, 'operator', actor_operator) end,
    'code', code, 'operation', action, 'outcome', outcome, 'request_id', request_id, 'resource', resource,
    'salt', salt, 'status', status, 'time', at, 'transport', transport, 'v', 1) as record_json
  from audit_events where leaf_index >= ? order by leaf_index limit ?`;

export interface SqliteLeafRow {
  id: number;
  leaf_index: number;
  leaf_hash: string;
  record_json: string;
}

export const sqliteLeafOf = (r: SqliteLeafRow): LoggedLeaf => ({
  id: r.id,
  leafIndex: r.leaf_index,
  leafHash: r.leaf_hash,
  recordJson: r.record_json,
});

/** Up to `limit` sequenced events from leaf index `from` on, in index order. */
export async function readLogPage(store: Store, from: number, limit: number): Promise<LoggedLeaf[]> {
  if (store.engine === "sqlite") {
    const rows = await store.hot.all<SqliteLeafRow>(store.db, SQLITE_PAGE_SQL, [from, limit]);
    return rows.map(sqliteLeafOf);
  }
  return readLogPageInJs(store, from, limit);
}

/** The same page with the records rebuilt in JavaScript (PostgreSQL; and on SQLite, the reference for tests). */
export async function readLogPageInJs(store: Store, from: number, limit: number): Promise<LoggedLeaf[]> {
  const rows = await store.hot.all<Row>(store.db, PAGE_SQL, [from, limit]);
  return rows.map((r) => ({
    id: Number(r.id),
    leafIndex: Number(r.leaf_index),
    leafHash: r.leaf_hash,
    recordJson: auditRecordJson(auditRecordOf(r, r.salt)),
  }));
}
