import SQLite from "better-sqlite3";
import { auditRecordJson, auditRecordOf } from "../services/audit.js";
import type { AuditEventsTable } from "../store/schema.js";
import type { Store } from "../store/store.js";

/** One sequenced event as a verifier reads it: its place, its stored leaf hash, and what that must be the hash of. */
export interface LoggedLeaf {
  readonly id: number;
  readonly leafIndex: number;
  /** The leaf hash the tree was built from (audit_leaves), 32 bytes (a malformed stored value equals no hash). */
  readonly leafHash: Uint8Array;
  /** 0x00 then the record rebuilt from the event's stored fields as RFC 8785 JSON: the leaf's hash input. */
  readonly leafInput: string;
}

/** Reads pages of the log in leaf-index order: up to `limit` sequenced events from index `from` on. */
export interface LogReader {
  read(from: number, limit: number): Promise<LoggedLeaf[]> | LoggedLeaf[];
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
> & { id: number | string; leaf_index: number | string; leaf_hash: Buffer };

/** The leaves from an index on, each with its event (a leaf whose event is gone is skipped: a gap the verifier names). */
const PAGE_SQL = `select e.id, e.at, e.request_id, e.actor_key_id, e.actor_account_id, e.actor_operator, e.action,
  e.transport, e.resource, e.outcome, e.status, e.code, e.salt, l.leaf_hash, l.leaf_index
  from audit_leaves l join audit_events e on e.id = l.event_id where l.leaf_index >= ? order by l.leaf_index limit ?`;

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
 * The verifier's page on SQLite: the leaf input built by SQLite beside the tree's leaf hash (bytes, from
 * audit_leaves) — four values per row cross into JavaScript instead of fifteen, as arrays, which more than halves
 * the cost of reading the log.
 */
const SQLITE_PAGE_SQL = `select e.id, l.leaf_index, l.leaf_hash, ${SQLITE_LEAF_INPUT}
  from audit_leaves l join audit_events e on e.id = l.event_id where l.leaf_index >= ? order by l.leaf_index limit ?`;

const NO_HASH = new Uint8Array(0);

/** A reader over its own read-only connection to the embedded store's file (the verifier's threads each open one). */
export function openSqliteLogReader(file: string): LogReader {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  const page = db.prepare(SQLITE_PAGE_SQL).raw(true);
  return {
    read: (from, limit) =>
      (page.all(from, limit) as [number, number, unknown, string][]).map(([id, leafIndex, hash, input]) => ({
        id,
        leafIndex,
        leafHash: Buffer.isBuffer(hash) ? hash : NO_HASH,
        leafInput: input,
      })),
    close: () => db.close(),
  };
}

/** A reader through the store, the records rebuilt in JavaScript (PostgreSQL; on SQLite, the reference in tests). */
export function storeLogReader(store: Store): LogReader {
  return {
    async read(from, limit) {
      const rows = await store.hot.all<Row>(store.db, PAGE_SQL, [from, limit]);
      return rows.map((r) => ({
        id: Number(r.id),
        leafIndex: Number(r.leaf_index),
        leafHash: Buffer.isBuffer(r.leaf_hash) ? r.leaf_hash : NO_HASH,
        leafInput: `\0${auditRecordJson(auditRecordOf(r, r.salt))}`,
      }));
    },
    close() {},
  };
}

/** The verifier's reader for a store: the embedded store's own fast reader, else through the store. */
export function logReaderFor(store: Store): LogReader {
  return store.file !== undefined ? openSqliteLogReader(store.file) : storeLogReader(store);
}
